import { Ban, CreditCard, Mail } from "lucide-react";
import { useRef } from "react";
import { formatUsd } from "#domain/money";
import type { AdminSubscriptionReport, DunningEntry } from "#domain/subscription-report-schemas";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { ScrollTable, TableCell, TableRow } from "#web/components/ui/table";
import { useCancelSubscriptionNow } from "#web/features/subscription-reports/api/cancel-subscription";
import { useRetryCharge } from "#web/features/subscription-reports/api/retry-charge";
import { useSendReminder } from "#web/features/subscription-reports/api/send-reminder";
import { On, Pager, Plan, ReportSection } from "#web/features/subscription-reports/components/report-parts";
import { runMutation } from "#web/lib/mutation";

const columns = ["Buyer", "Product", "Amount due", "Due since", "Reminders", "Ends if unpaid", "Actions"];

/**
 * The dunning queue: every renewal past its due date and unpaid, the longest overdue first, with what an
 * admin can do about it: Retry charge charges its saved card or PayPal account again now (when it has
 * one that can be charged); Send reminder e-mails the buyer again now; Cancel subscription ends it
 * (after asking).
 */
export function DunningQueue({
  dunning,
  searched,
  onPage,
}: {
  dunning: AdminSubscriptionReport["dunning"];
  searched: boolean;
  onPage: (page: number) => void;
}) {
  // A cancelled row leaves the list: the keyboard goes to the list's heading, not to the page's top.
  const heading = useRef<HTMLHeadingElement>(null);
  return (
    <ReportSection
      level={2}
      title="Dunning queue"
      headingRef={heading}
      description="Renewals not paid by their due date. The renewal job charges a saved card or PayPal account again and reminds the buyer on days 1, 3 and 5, and ends the subscription on day 7. Retry charge tries the saved method now; Send reminder e-mails the buyer to pay it or fix the method."
    >
      {dunning.total === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid="dunning-empty">
          {searched ? "No past-due renewal matches the search." : "No renewal is past due."}
        </p>
      ) : (
        <ScrollTable label="Dunning queue" columns={columns} minWidth="min-w-[64rem]" testId="dunning-table">
          {dunning.items.map((entry) => (
            <DunningRow key={entry.subscriptionId} entry={entry} onGone={() => heading.current?.focus()} />
          ))}
        </ScrollTable>
      )}
      <Pager
        what="the dunning queue"
        total={dunning.total}
        page={dunning.page}
        pageSize={dunning.pageSize}
        onPage={onPage}
      />
    </ReportSection>
  );
}

function DunningRow({ entry, onGone }: { entry: DunningEntry; onGone: () => void }) {
  const remind = useSendReminder();
  const retry = useRetryCharge();
  const cancel = useCancelSubscriptionNow();
  const { subscriptionId: id, productName, buyerEmail } = entry;
  const subject = `${productName} for ${buyerEmail}`;
  // One toast per row and action: pressing again replaces it instead of stacking.
  const onRemind = () =>
    runMutation(remind.mutateAsync(id), {
      success: (sent) => ({
        id: `remind-${id}`,
        title: "Reminder sent",
        description: `${productName}: the payment reminder is on its way to ${sent.sentTo}.`,
      }),
      error: {
        id: `remind-${id}`,
        title: "Could not send the reminder",
        show: "api",
        fallback: "Please try again.",
      },
    });
  const onRetry = () =>
    runMutation(retry.mutateAsync(id), {
      success: (answer) => ({
        id: `retry-${id}`,
        title:
          answer.charged === "paid"
            ? "Renewal paid"
            : answer.charged === "pending"
              ? "Charge on its way"
              : "Charge declined",
        description:
          answer.charged === "paid"
            ? `${productName}: ${entry.chargedTo} was charged and the subscription is active again.`
            : answer.charged === "pending"
              ? `${productName}: the provider is still processing the charge.`
              : `${productName}: ${answer.reason ?? "the provider declined the charge"}`,
      }),
      error: {
        id: `retry-${id}`,
        title: "Could not retry the charge",
        show: "api",
        fallback: "Please try again.",
      },
    });
  const onCancel = async () => {
    const result = await runMutation(cancel.mutateAsync(id), {
      success: {
        id: `cancel-${id}`,
        title: "Subscription cancelled",
        description: `${subject} has ended.`,
      },
      error: {
        id: `cancel-${id}`,
        title: "Could not cancel the subscription",
        show: "api",
        fallback: "Please try again.",
      },
    });
    if (result.ok) onGone();
  };
  return (
    <TableRow className="[&>td]:align-top" data-testid="dunning-row">
      <TableCell>
        <span className="block font-medium">{entry.buyerName}</span>
        <span className="block text-sm [overflow-wrap:anywhere] text-muted-foreground">{buyerEmail}</span>
      </TableCell>
      <TableCell>
        <span className="block font-medium break-words">{productName}</span>
        <span className="block text-sm text-muted-foreground">
          <Plan interval={entry.interval} quantity={entry.quantity} />
          {" · "}
          {entry.vendor ?? "Stackbay"}
        </span>
        {entry.sellerEmail && (
          <span className="block text-xs [overflow-wrap:anywhere] text-muted-foreground">
            {entry.sellerEmail}
          </span>
        )}
      </TableCell>
      <TableCell className="tabular-nums">
        {formatUsd(entry.amountDue)}
        <span className="block text-xs text-muted-foreground">tax included</span>
      </TableCell>
      <TableCell>
        <On date={entry.dueAt} />
      </TableCell>
      <TableCell data-testid="dunning-reminders">
        {entry.remindersSent} sent
        <span className="block text-xs text-muted-foreground">
          {entry.nextReminderAt ? (
            <>
              next <On date={entry.nextReminderAt} />
            </>
          ) : (
            "none left"
          )}
        </span>
      </TableCell>
      <TableCell>
        <On date={entry.endsAt} />
      </TableCell>
      <TableCell className="py-2">
        <div className="flex flex-wrap gap-2">
          {entry.chargedTo && (
            <Button
              size="sm"
              variant="outline"
              aria-disabled={retry.isPending || undefined}
              onClick={() => {
                if (!retry.isPending) void onRetry();
              }}
            >
              <CreditCard aria-hidden />
              {retry.isPending ? "Charging…" : "Retry charge"}
              <span className="sr-only">
                {" "}
                of {subject} on {entry.chargedTo}
              </span>
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            // Not `disabled` while it works: a disabled button loses the keyboard focus.
            aria-disabled={remind.isPending || undefined}
            onClick={() => {
              if (!remind.isPending) void onRemind();
            }}
          >
            <Mail aria-hidden />
            {remind.isPending ? "Sending…" : "Send reminder"}
            <span className="sr-only"> for {subject}</span>
          </Button>
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button
                size="sm"
                variant="outline"
                className="border-destructive/60 text-destructive dark:text-red-400"
                aria-disabled={cancel.isPending || undefined}
                // While it works the dialog does not open again (not `disabled`: that loses the focus).
                onClick={(event) => {
                  if (cancel.isPending) event.preventDefault();
                }}
              >
                <Ban aria-hidden />
                {cancel.isPending ? "Cancelling…" : "Cancel subscription"}
                <span className="sr-only"> {subject}</span>
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Cancel {productName}?</AlertDialogTitle>
                <AlertDialogDescription>
                  The subscription of {buyerEmail} ends now:{" "}
                  {entry.renewalOrderId &&
                    `its unpaid renewal of ${formatUsd(entry.amountDue)} is cancelled, `}
                  any license keys it has stop working and the buyer is told by e-mail. Nothing is refunded.
                  This cannot be undone.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Go back</AlertDialogCancel>
                <AlertDialogAction variant="destructive" onClick={() => void onCancel()}>
                  Cancel subscription
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      </TableCell>
    </TableRow>
  );
}
