import { CheckCircle2, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "#web/components/ui/card";

/** What the outcome was, which sets the icon and its colour. */
export type Outcome = "success" | "failure" | "neutral";

const icons: Record<Outcome, ReactNode> = {
  success: <CheckCircle2 className="mt-1 size-6 shrink-0 text-green-600 dark:text-green-400" aria-hidden />,
  failure: <XCircle className="mt-1 size-6 shrink-0 text-destructive" aria-hidden />,
  neutral: <XCircle className="mt-1 size-6 shrink-0 text-muted-foreground" aria-hidden />,
};

/**
 * The result of something a person did (a payment confirmed, failed or cancelled, an order expired): an
 * icon for the outcome beside its heading and what it means, optionally more below (the order's lines),
 * an error from the last action tried here, and what to do next.
 */
export function OutcomeCard({
  outcome,
  title,
  children,
  details,
  error,
  actions,
  wide = false,
  testId,
}: {
  outcome: Outcome;
  title: string;
  /** The text under the heading. */
  children: ReactNode;
  /** Below the heading and its text, across the card. */
  details?: ReactNode;
  /** Why the last action failed, read out as it appears. */
  error?: ReactNode;
  actions: ReactNode;
  /** For a card with details to lay out (an order's lines). */
  wide?: boolean;
  testId?: string;
}) {
  return (
    <section className={`mx-auto ${wide ? "max-w-2xl" : "max-w-lg"} px-4 py-10`} data-testid={testId}>
      <Card className="p-6 sm:p-8">
        <div className="flex items-start gap-3">
          {icons[outcome]}
          <div>
            <h2 className="text-xl font-semibold">{title}</h2>
            {children}
          </div>
        </div>
        {details}
        {error ? (
          <p className="mt-4 text-sm text-destructive" role="alert">
            {error}
          </p>
        ) : null}
        <div className={`${details ? "mt-8" : "mt-6"} flex flex-col gap-3 sm:flex-row`}>{actions}</div>
      </Card>
    </section>
  );
}
