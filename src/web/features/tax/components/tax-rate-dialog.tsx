import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { formatRatePercent } from "#domain/money";
import { type AdminTaxRate, rateToPercent, type TaxRateInput, taxRateInputSchema } from "#domain/tax";
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
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useChangeTaxRate } from "#web/features/tax/api/admin-tax-rates";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

/**
 * Edits one jurisdiction's rate in percent, or returns it to the default; the checks are the API's
 * own schema. The dialog closes only once the change is saved.
 */
export function TaxRateDialog({ rate }: { rate: AdminTaxRate }) {
  const [open, setOpen] = useState(false);
  const change = useChangeTaxRate();
  const isDefault = rate.updatedAt === null;
  const form = useForm<TaxRateInput>({
    resolver: zodResolver(taxRateInputSchema),
    values: { ratePercent: rateToPercent(rate.rate) },
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting || change.isPending;

  const save = async (ratePercent: string | null) => {
    const result = await runMutation(change.mutateAsync({ jurisdiction: rate.jurisdiction, ratePercent }), {
      success: (items) => {
        const saved = items.find((r) => r.jurisdiction === rate.jurisdiction);
        return {
          title: "Tax rate saved",
          description: `${rate.label}: ${saved ? formatRatePercent(saved.rate) : ""}${ratePercent === null ? " (default)" : ""}.`,
        };
      },
      error: { title: "Failed to save tax rate", show: "client" },
    });
    if (result.ok) {
      setOpen(false);
      return;
    }
    if (result.error instanceof ApiError && Array.isArray(result.error.details)) {
      const detail = (result.error.details as { path?: string; message?: string }[]).find(
        (d) => d.path === "ratePercent",
      );
      if (detail?.message) form.setError("ratePercent", { message: detail.message });
    }
  };
  const onSubmit = form.handleSubmit((values) => save(values.ratePercent));

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" aria-label={`Edit rate: ${rate.label}`}>
          Edit
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={`Rate of ${rate.label}`}>
          <AlertDialogHeader>
            <AlertDialogTitle>{rate.label}</AlertDialogTitle>
            <AlertDialogDescription>
              New orders are taxed at this rate; orders already placed keep the rate they were charged. The
              default is {formatRatePercent(rate.defaultRate)}.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <FormField label="Rate (%)" hint="0 to 50, at most 2 decimals" error={errors.ratePercent?.message}>
            <Input inputMode="decimal" autoComplete="off" {...form.register("ratePercent")} />
          </FormField>
          <AlertDialogFooter>
            <AlertDialogCancel type="button" disabled={busy}>
              Cancel
            </AlertDialogCancel>
            {!isDefault && (
              <Button type="button" variant="outline" disabled={busy} onClick={() => save(null)}>
                Use default ({formatRatePercent(rate.defaultRate)})
              </Button>
            )}
            <Button type="submit" disabled={busy}>
              {busy ? "Saving..." : "Save"}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
