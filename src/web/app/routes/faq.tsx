import { ArrowRight, ChevronDown, LifeBuoy, Search, SearchX } from "lucide-react";
import { Accordion } from "radix-ui";
import { useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { type FaqCategory, faqCategories, faqItems, searchFaq } from "#domain/faq";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Input } from "#web/components/ui/input";
import { FaqVote } from "#web/features/faq/components/faq-vote";
import { cn } from "#web/lib/utils";

const categoryLabels: Record<FaqCategory | "all", string> = {
  all: "All",
  general: "General",
  sellers: "Sellers",
  payments: "Payments",
  cryptocurrency: "Cryptocurrency",
  licensing: "Licensing",
  support: "Support",
};

/** Where an answer sends the reader next. */
const nextSteps: Partial<Record<string, { to: string; label: string }>> = {
  "become-a-seller": { to: paths.partner(), label: "Become a Partner" },
  "seller-refund-requests": { to: paths.dashboard(), label: "Go to your dashboard" },
  "refund-policy": { to: paths.dashboard(), label: "Go to your dashboard" },
  "license-delivery": { to: paths.dashboard(), label: "Go to your dashboard" },
  "what-is-stackbay": { to: paths.about(), label: "More about Stackbay" },
  "support-response-time": { to: paths.contact(), label: "Contact Support" },
};

function CategoryFilter({
  value,
  onChange,
}: {
  value: FaqCategory | "all";
  onChange: (next: FaqCategory | "all") => void;
}) {
  return (
    <fieldset className="flex min-w-0 flex-wrap gap-2">
      <legend className="sr-only">Filter by category</legend>
      {(["all", ...faqCategories] as const).map((category) => {
        const pressed = value === category;
        return (
          <button
            key={category}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(category)}
            className={cn(
              "inline-flex h-8 items-center rounded-full border px-3.5 text-xs font-semibold transition-colors",
              pressed
                ? "border-primary bg-primary text-primary-foreground"
                : "border-border bg-card text-foreground hover:bg-accent hover:text-accent-foreground",
            )}
          >
            {categoryLabels[category]}
          </button>
        );
      })}
    </fieldset>
  );
}

const noChange = () => () => {};

export function Component() {
  // False while React takes over the drawn page (the server's snapshot), true after.
  const hydrated = useSyncExternalStore(
    noChange,
    () => true,
    () => false,
  );
  const [text, setText] = useState("");
  const [category, setCategory] = useState<FaqCategory | "all">("all");
  const [open, setOpen] = useState<string[]>([]);
  const matches = searchFaq(faqItems, text, category);
  const filtered = text.trim() !== "" || category !== "all";
  const clear = () => {
    setText("");
    setCategory("all");
  };

  return (
    <>
      <PageHeader
        title="Frequently Asked Questions"
        subtitle="Answers about buying, selling, payments, cryptocurrency, licenses and support on Stackbay."
      />
      <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-10">
        <Card asChild className="space-y-4 p-4">
          <search>
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
                aria-hidden
              />
              <label htmlFor="faq-search" className="sr-only">
                Search questions
              </label>
              <Input
                id="faq-search"
                type="search"
                placeholder="e.g. refunds or PayPal"
                className="pl-9"
                maxLength={100}
                value={text}
                onChange={(event) => setText(event.target.value)}
              />
            </div>
            <CategoryFilter value={category} onChange={setCategory} />
          </search>
        </Card>

        <p className="mt-6 text-sm text-muted-foreground" aria-live="polite" data-testid="faq-count">
          {filtered
            ? `Showing ${matches.length} of ${faqItems.length} questions`
            : `${faqItems.length} questions`}
        </p>

        {matches.length === 0 ? (
          <div className="mt-8 flex flex-col items-center gap-3 text-center" data-testid="faq-empty">
            <SearchX className="size-12 text-muted-foreground" aria-hidden />
            <h2 className="text-xl font-semibold">No results found</h2>
            <p className="text-muted-foreground">
              No question matches your search. Try another word or browse all categories.
            </p>
            <Button onClick={clear}>Clear search</Button>
          </div>
        ) : (
          <>
            <h2 className="sr-only">Questions</h2>
            {/* Drawn again once the page is the app's: after hydration, a question opened pointed its
                aria-controls at another id than its answer's (Radix's ids drift from the server's here). */}
            <Accordion.Root
              key={hydrated ? "app" : "server"}
              type="multiple"
              value={open}
              onValueChange={setOpen}
              className="mt-3 space-y-3"
            >
              {matches.map((item) => {
                const next = nextSteps[item.id];
                return (
                  <Card asChild key={item.id}>
                    <Accordion.Item value={item.id} id={item.id} data-testid="faq-item">
                      <Accordion.Header>
                        <Accordion.Trigger className="group flex w-full items-center justify-between gap-4 rounded-lg px-4 py-4 text-left font-medium hover:text-primary sm:px-5">
                          {item.question}
                          <ChevronDown
                            className="size-5 shrink-0 text-muted-foreground transition-transform group-data-[state=open]:rotate-180"
                            aria-hidden
                          />
                        </Accordion.Trigger>
                      </Accordion.Header>
                      <Accordion.Content className="px-4 pb-4 sm:px-5">
                        <span className="mb-2 inline-flex rounded-full bg-secondary px-2.5 py-0.5 text-xs font-medium text-secondary-foreground">
                          {categoryLabels[item.category]}
                        </span>
                        <p className="leading-relaxed text-muted-foreground">{item.answer}</p>
                        {next && (
                          <Link
                            to={next.to}
                            className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
                          >
                            {next.label} <ArrowRight className="size-4" aria-hidden />
                          </Link>
                        )}
                        <FaqVote questionId={item.id} />
                      </Accordion.Content>
                    </Accordion.Item>
                  </Card>
                );
              })}
            </Accordion.Root>
          </>
        )}

        <section
          className="mt-12 flex flex-col items-start gap-4 rounded-2xl border border-border bg-accent/50 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8"
          aria-labelledby="faq-contact-heading"
        >
          <div className="flex gap-4">
            <LifeBuoy className="mt-1 size-8 shrink-0 text-primary" aria-hidden />
            <div>
              <h2 id="faq-contact-heading" className="text-lg font-semibold">
                Still have questions?
              </h2>
              <p className="mt-1 text-sm text-muted-foreground">
                Our support team replies within 24 hours on business days.
              </p>
            </div>
          </div>
          <Button asChild>
            <Link to={paths.contact()}>Contact Support</Link>
          </Button>
        </section>
      </div>
    </>
  );
}
