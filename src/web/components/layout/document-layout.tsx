import { type ReactNode, useEffect, useState } from "react";
import { Card } from "#web/components/ui/card";
import { cn } from "#web/lib/utils";

/** One section of a long document: its anchor, its title (listed in the contents) and its text. */
export type DocumentSection = { id: string; title: string; body: ReactNode };

/**
 * Typography for the section bodies, applied to plain elements so the documents stay markup only:
 * paragraphs, bulleted lists, definition lists, sub-headings and links.
 */
const prose = cn(
  "mt-4 space-y-4 leading-relaxed text-foreground/90",
  "[&_ul]:list-disc [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_ul]:space-y-2 [&_ul]:pl-6",
  "[&_li]:pl-1 [&_li]:marker:text-muted-foreground",
  "[&_h3]:pt-2 [&_h3]:text-base [&_h3]:font-semibold [&_h3]:text-foreground",
  "[&_dl]:space-y-3 [&_dt]:font-semibold [&_dt]:text-foreground [&_dd]:mt-1 [&_dd]:pl-4 [&_dd]:text-muted-foreground",
  "[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_a]:break-words",
  "[&_strong]:font-semibold [&_strong]:text-foreground",
);

const headingId = (id: string) => `${id}-heading`;

/** Sections count as read once their top passes this line, just below the 64 px navbar. */
const READING_LINE = 120;

/** The id of the section being read: the last one whose top has passed the reading line. */
function useActiveSection(ids: string[]) {
  const [active, setActive] = useState<string | null>(null);
  const key = ids.join(" ");
  useEffect(() => {
    const sections = key
      .split(" ")
      .map((id) => document.getElementById(id))
      .filter((el): el is HTMLElement => el !== null);
    let frame = 0;
    const update = () => {
      frame = 0;
      const root = document.documentElement;
      // At the very bottom the last sections can never reach the line; the last one is then current.
      const atBottom = window.innerHeight + window.scrollY >= root.scrollHeight - 2;
      let current: string | null = null;
      for (const section of sections) {
        if (section.getBoundingClientRect().top <= READING_LINE) current = section.id;
      }
      setActive(atBottom && current ? (sections.at(-1)?.id ?? current) : current);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [key]);
  return active;
}

/**
 * A long document of sections (the legal pages, the developers' guide): its header, an introduction,
 * a table of contents that marks the section being read (beside the text on a desktop, above it on a
 * phone), and the sections, numbered or not.
 */
export function DocumentLayout({
  header,
  intro,
  sections,
  numbered = false,
}: {
  header: ReactNode;
  intro: ReactNode;
  sections: DocumentSection[];
  numbered?: boolean;
}) {
  const active = useActiveSection(sections.map((s) => s.id));
  const List = numbered ? "ol" : "ul";
  return (
    <>
      {header}
      <div className="mx-auto grid max-w-7xl grid-cols-1 gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[16rem_minmax(0,48rem)] lg:gap-x-12 lg:py-12 xl:gap-x-16">
        <div className={cn(prose, "mt-0 max-w-3xl text-base lg:col-start-2 lg:row-start-1")}>{intro}</div>

        <aside className="lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <Card
            asChild
            className="p-5 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-8rem)] lg:overflow-y-auto"
            flat
          >
            <nav aria-label="Table of contents">
              <h2 className="text-xs font-semibold tracking-wider text-muted-foreground uppercase">
                On this page
              </h2>
              <List
                className={cn(
                  "mt-3 space-y-1 text-sm",
                  numbered && "list-decimal pl-6 marker:text-muted-foreground",
                )}
              >
                {sections.map((section) => (
                  <li key={section.id} className={cn(numbered && "pl-1")}>
                    <a
                      href={`#${section.id}`}
                      aria-current={active === section.id ? "location" : undefined}
                      className={cn(
                        "block rounded-sm py-1 leading-snug text-muted-foreground transition-colors hover:text-foreground",
                        active === section.id && "font-medium text-primary hover:text-primary",
                      )}
                    >
                      {section.title}
                    </a>
                  </li>
                ))}
              </List>
            </nav>
          </Card>
        </aside>

        <article className="min-w-0 max-w-3xl space-y-10 lg:col-start-2 lg:row-start-2">
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={headingId(section.id)}
              className="scroll-mt-6 border-t border-border pt-10 first:border-t-0 first:pt-0"
            >
              <h2 id={headingId(section.id)} className="text-xl font-semibold tracking-tight sm:text-2xl">
                {numbered ? `${index + 1}. ` : ""}
                {section.title}
              </h2>
              <div className={prose}>{section.body}</div>
            </section>
          ))}
        </article>
      </div>
    </>
  );
}
