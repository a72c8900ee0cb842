import { FlaskConical } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { TEST_MODE_LABEL } from "#domain/payments";
import { stripeStatusLabels, type TestOnboardingChoice } from "#domain/payouts";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireUser } from "#web/features/auth/components/guards";
import {
  useChooseTestOnboarding,
  useTestConnectAccount,
} from "#web/features/payout-accounts/api/payout-account";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

/**
 * `routePatterns.testConnect`: test mode's stand-in for Stripe Connect's hosted onboarding. It asks for
 * nothing and moves no money; the choice reaches the server as a signed account.updated event, as
 * Stripe's would.
 */
export function Component() {
  const { accountId = "" } = useParams();
  return (
    <RequireUser>
      <TestConnect accountId={accountId} />
    </RequireUser>
  );
}

function TestConnect({ accountId }: { accountId: string }) {
  const account = useTestConnectAccount(accountId);
  const choose = useChooseTestOnboarding(accountId);
  const [leaving, setLeaving] = useState(false);

  if (account.isPending) return <Spinner label="Loading the onboarding" />;
  if (account.isError) {
    const away = (
      <Button asChild variant="outline">
        <Link to={paths.dashboard("wallet")}>Go to your wallet</Link>
      </Button>
    );
    if (!(account.error instanceof ApiError && account.error.status === 404)) {
      return (
        <LoadError
          page
          title="Could not load the onboarding"
          text="Please try again in a moment."
          error={account.error}
          onRetry={() => void account.refetch()}
        >
          {away}
        </LoadError>
      );
    }
    return (
      <section className="mx-auto max-w-lg px-4 py-16 text-center" data-testid="test-connect-not-found">
        <h1 className="text-2xl font-semibold">Account not found</h1>
        <p className="mt-2 text-muted-foreground">This onboarding page does not exist or is not yours.</p>
        <div className="mt-6">{away}</div>
      </section>
    );
  }

  const onChoose = async (choice: TestOnboardingChoice) => {
    const result = await runMutation(choose.mutateAsync(choice), {
      error: {
        title: "Could not finish the onboarding",
        show: "api",
        fallback: "Something went wrong. Please try again.",
      },
    });
    if (!result.ok) return;
    const { redirectUrl } = result.data;
    setLeaving(true);
    window.scrollTo(0, 0);
    window.location.assign(redirectUrl);
  };
  const busy = choose.isPending || leaving;

  return (
    <section className="mx-auto max-w-lg px-4 py-10 sm:py-16" aria-labelledby="test-connect-title">
      <Card className="p-6 sm:p-8" data-testid="test-connect">
        <p className="inline-flex items-center gap-2 rounded-full border border-amber-400 bg-amber-100 px-3 py-1 text-xs font-semibold text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <FlaskConical className="size-3.5" aria-hidden />
          {TEST_MODE_LABEL}
        </p>
        <h1 id="test-connect-title" className="mt-4 text-2xl font-semibold">
          Stripe onboarding (test)
        </h1>
        <p className="mt-1 text-muted-foreground">
          Stripe would ask for your identity and bank details here. Nothing is collected in test mode.
        </p>
        <p className="mt-6 text-sm text-muted-foreground">Account status</p>
        <p className="text-lg font-semibold">{stripeStatusLabels[account.data.status]}</p>
        <div className="mt-6 grid gap-3 sm:grid-cols-2">
          <Button type="button" size="lg" disabled={busy} onClick={() => void onChoose("complete")}>
            Complete onboarding
          </Button>
          <Button
            type="button"
            size="lg"
            variant="outline"
            disabled={busy}
            onClick={() => void onChoose("incomplete")}
          >
            Leave incomplete
          </Button>
        </div>
      </Card>
    </section>
  );
}
