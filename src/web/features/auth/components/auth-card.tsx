import type { LucideIcon } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Card } from "#web/components/ui/card";

/** The centred card every sign-in screen sits in: icon, heading, short intro, the form, then links. */
export function AuthCard({
  title,
  pageTitle = title,
  description,
  icon: Icon,
  children,
  footer,
}: {
  title: string;
  pageTitle?: string;
  description?: ReactNode;
  icon: LucideIcon;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const headingId = useId();
  return (
    <div className="flex justify-center px-4 py-10 sm:py-16">
      <title>{`${pageTitle} | Stackbay`}</title>
      <Card asChild className="w-full max-w-md p-6 sm:p-8">
        <section aria-labelledby={headingId}>
          <div className="flex flex-col items-center text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Icon className="size-6" aria-hidden />
            </span>
            <h1 id={headingId} className="mt-4 text-2xl font-bold tracking-tight">
              {title}
            </h1>
            {description && <p className="mt-2 text-sm text-muted-foreground">{description}</p>}
          </div>
          <div className="mt-6">{children}</div>
          {footer && (
            <div className="mt-6 flex flex-col gap-2 border-t border-border pt-5 text-center text-sm text-muted-foreground">
              {footer}
            </div>
          )}
        </section>
      </Card>
    </div>
  );
}

/** An inline link in the card's footer, e.g. "Already have an account? Log in". */
export const authLinkClass =
  "font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring rounded-sm";
