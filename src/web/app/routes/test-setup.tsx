import { FlaskConical } from "lucide-react";
import { useId, useState } from "react";
import { Link, useParams } from "react-router";
import { type TestCard, type TestSetupChoice, testCards } from "#domain/payment-methods";
import { TEST_MODE_LABEL } from "#domain/payments";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireUser } from "#web/features/auth/components/guards";
import { useChooseTestSetup, useTestSetupSession } from "#web/features/payment-methods/api/test-setup";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

/**
 * `routePatterns.testSetup`: the test-mode provider's hosted page for saving a card or a PayPal account.
 * It stands where Stripe's or PayPal's page would, asks for no card data, and lets the buyer save one of
 * the test cards (each declines or not when charged later) or cancel.
 */
export function Component() {
  const { ref = "" } = useParams();
  return (
    <RequireUser>
      <TestSetup setupRef={ref} />
    </RequireUser>
  );
}

const stateText = { saved: "saved", cancelled: "cancelled" } as const;

function TestSetup({ setupRef }: { setupRef: string }) {
  const session = useTestSetupSession(setupRef);
  const choose = useChooseTestSetup(setupRef);
  const [card, setCard] = useState<TestCard["last4"]>("4242");
  const [leaving, setLeaving] = useState(false);
  const cardsId = useId();

  if (session.isPending) return <Spinner label="Loading the setup" />;
  if (session.isError) {
    const away = (
      <Button asChild variant="outline">
        <Link to={paths.dashboard("wallet")}>Go to your wallet</Link>
      </Button>
    );
    if (!(session.error instanceof ApiError && session.error.status === 404)) {
      return (
        <LoadError
          page
          title="Could not load the setup"
          text="Please try again in a moment."
          error={session.error}
          onRetry={() => void session.refetch()}
        >
          {away}
        </LoadError>
      );
    }
    return (
      <section className="mx-auto max-w-lg px-4 py-16 text-center" data-testid="test-setup-not-found">
        <h1 className="text-2xl font-semibold">Setup not found</h1>
        <p className="mt-2 text-muted-foreground">This setup page does not exist or is not yours.</p>
        <div className="mt-6">{away}</div>
      </section>
    );
  }

  const { data } = session;
  const isCard = data.kind === "card";
  const onChoose = async (choice: TestSetupChoice["choice"]) => {
    const result = await runMutation(
      choose.mutateAsync(choice === "save" && isCard ? { choice, card } : { choice }),
      {
        error: {
          title: isCard ? "Could not save the card" : "Could not save the PayPal account",
          show: "api",
          fallback: "Something went wrong. Please try again.",
        },
      },
    );
    if (!result.ok) return;
    setLeaving(true);
    // Scroll restoration keys a freshly loaded page by the same key: leave at the top, arrive at the top.
    window.scrollTo(0, 0);
    window.location.assign(result.data);
  };
  const busy = choose.isPending || leaving;
  const saveLabel = isCard ? "Save card" : "Save PayPal account";

  return (
    <section className="mx-auto max-w-lg px-4 py-10 sm:py-16" aria-labelledby="test-setup-title">
      <title>{`${isCard ? "Save a card" : "Save a PayPal account"} | Stackbay`}</title>
      <Card className="p-6 sm:p-8" data-testid="test-setup">
        <p className="inline-flex items-center gap-2 rounded-full border border-amber-400 bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <FlaskConical className="size-3.5" aria-hidden />
          {TEST_MODE_LABEL}
        </p>
        <h1 id="test-setup-title" className="mt-4 text-2xl font-semibold">
          {isCard ? "Save a card" : "Save a PayPal account"}
        </h1>
        <p className="mt-1 text-muted-foreground">
          {isCard
            ? "Choose a test card to save for your renewals. What it does when it is charged later is in its name."
            : "Save a test PayPal account for your renewals."}{" "}
          Nothing is charged now, and no card data is asked for.
        </p>
        {data.state !== "pending" && (
          <p className="mt-4 text-sm font-medium" role="status" data-testid="test-setup-decided">
            This setup has already been {stateText[data.state]}.
          </p>
        )}
        <form
          className="mt-6"
          onSubmit={(event) => {
            event.preventDefault();
            if (!busy) void onChoose("save");
          }}
        >
          {isCard && (
            <fieldset className="grid gap-2" data-testid="test-setup-cards">
              <legend className="mb-2 text-sm font-medium">Test card</legend>
              {testCards.map((test) => (
                <label
                  key={test.last4}
                  className="flex cursor-pointer items-start gap-3 rounded-md border border-border p-3 text-sm has-checked:border-primary has-checked:bg-accent has-checked:text-accent-foreground has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring"
                >
                  <input
                    type="radio"
                    name={cardsId}
                    value={test.last4}
                    checked={card === test.last4}
                    onChange={() => setCard(test.last4)}
                    disabled={busy}
                    className="mt-0.5 size-4 shrink-0 accent-primary"
                  />
                  <span className="min-w-0 break-words">{test.label}</span>
                </label>
              ))}
            </fieldset>
          )}
          <div className="mt-6 grid gap-3 sm:grid-cols-2">
            <Button type="submit" size="lg" disabled={busy}>
              {saveLabel}
            </Button>
            <Button
              type="button"
              variant="outline"
              size="lg"
              disabled={busy}
              onClick={() => void onChoose("cancel")}
            >
              Cancel
            </Button>
          </div>
        </form>
      </Card>
    </section>
  );
}
