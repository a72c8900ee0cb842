import { FlaskConical } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { formatUsd } from "#domain/money";
import { TEST_MODE_LABEL, type TestPaymentChoice } from "#domain/payments";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireUser } from "#web/features/auth/components/guards";
import { useChooseTestPayment, useTestPaymentSession } from "#web/features/payments/api/test-payment";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

/**
 * `routePatterns.testPayment`: the test-mode provider's hosted page. It stands where Stripe's or
 * PayPal's page would, takes no money, and lets the buyer pay, decline or cancel.
 */
export function Component() {
  const { ref = "" } = useParams();
  return (
    <RequireUser>
      <TestPayment paymentRef={ref} />
    </RequireUser>
  );
}

const choices: {
  choice: TestPaymentChoice;
  label: string;
  variant: "default" | "destructive" | "outline";
}[] = [
  { choice: "pay", label: "Pay", variant: "default" },
  { choice: "decline", label: "Decline", variant: "destructive" },
  { choice: "cancel", label: "Cancel", variant: "outline" },
];

function TestPayment({ paymentRef }: { paymentRef: string }) {
  const session = useTestPaymentSession(paymentRef);
  const choose = useChooseTestPayment(paymentRef);
  const [leaving, setLeaving] = useState(false);

  if (session.isPending) return <Spinner label="Loading the payment" />;
  if (session.isError) {
    const away = (
      <Button asChild variant="outline">
        <Link to={paths.dashboard()}>Go to your orders</Link>
      </Button>
    );
    if (!(session.error instanceof ApiError && session.error.status === 404)) {
      return (
        <LoadError
          page
          title="Could not load the payment"
          text="Please try again in a moment."
          error={session.error}
          onRetry={() => void session.refetch()}
        >
          {away}
        </LoadError>
      );
    }
    return (
      <section className="mx-auto max-w-lg px-4 py-16 text-center" data-testid="test-payment-not-found">
        <h1 className="text-2xl font-semibold">Payment not found</h1>
        <p className="mt-2 text-muted-foreground">This payment page does not exist or is not yours.</p>
        <div className="mt-6">{away}</div>
      </section>
    );
  }

  const onChoose = async (choice: TestPaymentChoice) => {
    const result = await runMutation(choose.mutateAsync(choice), {
      error: {
        title: "Could not finish the payment",
        show: "api",
        fallback: "Something went wrong. Please try again.",
      },
    });
    if (!result.ok) return;
    const { redirectUrl } = result.data;
    setLeaving(true);
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(redirectUrl);
  };
  const { data } = session;
  const busy = choose.isPending || leaving;
  const decided = data.state !== "pending";

  return (
    <section className="mx-auto max-w-lg px-4 py-10 sm:py-16" aria-labelledby="test-payment-title">
      <Card className="p-6 sm:p-8" data-testid="test-payment">
        <p className="inline-flex items-center gap-2 rounded-full border border-amber-400 bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <FlaskConical className="size-3.5" aria-hidden />
          {TEST_MODE_LABEL}
        </p>
        <h1 id="test-payment-title" className="mt-4 text-2xl font-semibold">
          Test payment
        </h1>
        <p className="mt-1 text-muted-foreground" data-testid="test-payment-description">
          {data.description}
        </p>
        <p className="mt-6 text-sm text-muted-foreground">Amount</p>
        <p className="text-3xl font-bold tabular-nums" data-testid="test-payment-amount">
          {formatUsd(data.amountCents / 100)}
        </p>
        <p className="mt-4 text-sm text-muted-foreground">
          Nothing is charged. Choose how this payment should end, as a real payment page would report it.
        </p>
        {decided && (
          <p className="mt-4 text-sm font-medium" role="status">
            This payment has already been {data.state === "paid" ? "paid" : data.state}.
          </p>
        )}
        <div className="mt-6 grid gap-3 sm:grid-cols-3">
          {choices.map(({ choice, label, variant }) => (
            <Button
              key={choice}
              type="button"
              variant={variant}
              size="lg"
              disabled={busy}
              onClick={() => void onChoose(choice)}
            >
              {label}
            </Button>
          ))}
        </div>
      </Card>
    </section>
  );
}
