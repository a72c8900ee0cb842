import { Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { formatDateTime } from "#domain/dates";
import type { FeeRules, FeeRuleView, FeeScope } from "#domain/fees";
import { formatRatePercent } from "#domain/money";
import { ViewCard } from "#web/components/layout/view-card";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { useFeeRules, useRemoveFeeRule } from "#web/features/fees/api/fee-rules";
import { FeeRuleDialog, type FeeRuleDraft } from "#web/features/fees/components/fee-rule-dialog";
import { runMutation } from "#web/lib/mutation";

const sections: { scope: Exclude<FeeScope, "default">; title: string; empty: string }[] = [
  { scope: "category", title: "Category overrides", empty: "No category has its own fee." },
  { scope: "seller", title: "Seller overrides", empty: "No seller has a negotiated fee." },
];

/** The fee rules: the default, then overrides per category and per seller, each editable and removable. */
export function FeeRulesPanel() {
  const query = useFeeRules();
  const [draft, setDraft] = useState<FeeRuleDraft | null>(null);
  return (
    <ViewCard
      title="Platform fees"
      description="Stackbay's share of each item's subtotal. A seller's rate beats its category's, which beats the default; a change applies to sales made after it."
      action={
        <Button size="sm" onClick={() => setDraft({ scope: "category" })}>
          <Plus aria-hidden /> Add fee rule
        </Button>
      }
    >
      {query.isPending ? (
        <Spinner label="Loading the fee rules" />
      ) : query.isError ? (
        <LoadError what="fee rules" error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <Rules rules={query.data} onEdit={setDraft} />
      )}
      <FeeRuleDialog draft={draft} onClose={() => setDraft(null)} />
    </ViewCard>
  );
}

/** The form's draft for a rule: a seller's rule is edited by the seller's account e-mail. */
function draftOf(rule: FeeRuleView): FeeRuleDraft {
  const percent = Math.round(Number(rule.rate) * 1_000_000) / 10_000;
  if (rule.scope === "category")
    return { scope: "category", category: rule.subject, percent, label: rule.label };
  if (rule.scope === "seller")
    return { scope: "seller", sellerEmail: rule.sellerEmail ?? "", percent, label: rule.label };
  return { scope: "default", percent, label: rule.label };
}

function Rules({ rules, onEdit }: { rules: FeeRules; onEdit: (draft: FeeRuleDraft) => void }) {
  const fallback = rules.rules.find((rule) => rule.scope === "default");
  return (
    <div className="grid gap-6" data-testid="fee-rules">
      <section aria-labelledby="fee-default">
        <h3 id="fee-default" className="text-sm font-semibold">
          Default
        </h3>
        {fallback ? (
          <ul className="mt-2">
            <RuleItem rule={fallback} onEdit={onEdit} />
          </ul>
        ) : (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border p-4">
            <p>
              <span className="text-lg font-semibold tabular-nums">
                {formatRatePercent(rules.builtInDefault)}
              </span>{" "}
              <Badge variant="outline">Built in</Badge>
            </p>
            <Button
              size="sm"
              variant="outline"
              onClick={() =>
                onEdit({ scope: "default", label: "Default for every sale", percent: Number.NaN })
              }
            >
              <Pencil aria-hidden /> Change default
            </Button>
          </div>
        )}
      </section>
      {sections.map(({ scope, title, empty }) => {
        const list = rules.rules.filter((rule) => rule.scope === scope);
        return (
          <section key={scope} aria-labelledby={`fee-${scope}`}>
            <h3 id={`fee-${scope}`} className="text-sm font-semibold">
              {title}
            </h3>
            {list.length === 0 ? (
              <p className="mt-2 text-sm text-muted-foreground">{empty}</p>
            ) : (
              <ul className="mt-2 grid gap-2">
                {list.map((rule) => (
                  <RuleItem key={rule.subject} rule={rule} onEdit={onEdit} />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

function RuleItem({ rule, onEdit }: { rule: FeeRuleView; onEdit: (draft: FeeRuleDraft) => void }) {
  return (
    <li
      className="flex flex-col gap-3 rounded-lg border border-border p-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="fee-rule"
    >
      <div className="min-w-0">
        <p className="font-medium break-words">{rule.label}</p>
        <p className="text-xs text-muted-foreground">Changed {formatDateTime(rule.updatedAt)}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="mr-2 text-lg font-semibold tabular-nums">{formatRatePercent(rule.rate)}</span>
        <Button
          size="sm"
          variant="outline"
          onClick={() => onEdit(draftOf(rule))}
          aria-label={`Change fee: ${rule.label}`}
        >
          <Pencil aria-hidden /> Change
        </Button>
        <RemoveRule rule={rule} />
      </div>
    </li>
  );
}

function RemoveRule({ rule }: { rule: FeeRuleView }) {
  const remove = useRemoveFeeRule();
  const [open, setOpen] = useState(false);
  const next =
    rule.scope === "default"
      ? "the built-in 10% applies"
      : rule.scope === "seller"
        ? "their categories' fees apply"
        : "the default fee applies";
  const confirm = async () => {
    const result = await runMutation(remove.mutateAsync({ scope: rule.scope, subject: rule.subject }), {
      success: { title: "Fee rule removed", description: `${rule.label}: ${next} from now on.` },
      error: { title: "Failed to remove the fee rule", show: "client" },
    });
    if (result.ok) setOpen(false);
  };
  return (
    <AlertDialog open={open} onOpenChange={setOpen}>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Remove fee: ${rule.label}`}>
          <Trash2 aria-hidden /> Remove
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove this fee rule?</AlertDialogTitle>
          <AlertDialogDescription>
            {rule.label} ({formatRatePercent(rule.rate)}): once removed, {next} to later sales.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={remove.isPending}>Cancel</AlertDialogCancel>
          <Button variant="destructive" onClick={confirm} disabled={remove.isPending}>
            {remove.isPending ? "Removing..." : "Remove"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
