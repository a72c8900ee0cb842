import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { currencyByCode } from "#domain/currency";
import { formatDateTime } from "#domain/dates";
import { type AdminFxRate, type FxCurrencyCode, type FxRateUpdate, fxRateUpdateSchema } from "#domain/system";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useUpdateFxRate } from "#web/features/system/api/update-fx-rate";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

const fields = ["rateToUsd", "fxBuffer"] as const;

const percent = (buffer: number) =>
  Number.isFinite(buffer) ? `${Number((buffer * 100).toFixed(2))} %` : "—";

/** One currency's rate and buffer, saved on their own; the checks are the API's own schema. */
export function FxRateForm({ code, rate }: { code: FxCurrencyCode; rate?: AdminFxRate }) {
  const currency = currencyByCode(code);
  const update = useUpdateFxRate();
  const saved = rate ? { rateToUsd: rate.rateToUsd, fxBuffer: rate.fxBuffer } : undefined;
  const form = useForm<FxRateUpdate>({
    resolver: zodResolver(fxRateUpdateSchema),
    // Follows a refreshed rate, keeping whatever the person is still editing.
    values: saved,
    resetOptions: { keepDirtyValues: true },
  });
  const { errors, isDirty, isSubmitting } = form.formState;
  const [rateToUsd, fxBuffer] = form.watch(["rateToUsd", "fxBuffer"]);
  const shownRate = rateToUsd * (1 + fxBuffer);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(update.mutateAsync({ code, ...values }), {
      success: (next) => ({
        title: "Exchange rate saved",
        description: `${code}: ${next.rateToUsd} per USD with a ${percent(next.fxBuffer)} buffer.`,
      }),
      error: { title: "Failed to save exchange rate" },
    });
    if (result.ok) {
      form.reset({ rateToUsd: result.data.rateToUsd, fxBuffer: result.data.fxBuffer });
      return;
    }
    const { error } = result;
    if (error instanceof ApiError && Array.isArray(error.details)) {
      for (const detail of error.details as { path?: string; message?: string }[]) {
        const field = fields.find((f) => f === detail.path);
        if (field && detail.message) form.setError(field, { message: detail.message });
      }
    }
  });

  return (
    <form
      aria-label={`${currency.name} (${code})`}
      onSubmit={onSubmit}
      noValidate
      className="grid gap-3 border-t border-border py-4 first:border-t-0 first:pt-0 sm:grid-cols-[11rem_1fr_1fr_auto] sm:items-start sm:gap-4"
      data-testid={`fx-rate-${code}`}
    >
      <div>
        <p className="font-semibold">{code}</p>
        <p className="text-sm text-muted-foreground">{currency.name}</p>
        <p className="mt-1 text-xs text-muted-foreground">
          {rate ? `Updated ${formatDateTime(rate.updatedAt)}` : "Not set: prices show in USD"}
        </p>
      </div>
      <FormField label="Rate to USD" hint={`${code} for 1 USD`} error={errors.rateToUsd?.message}>
        <Input
          type="number"
          inputMode="decimal"
          step="any"
          {...form.register("rateToUsd", { valueAsNumber: true })}
        />
      </FormField>
      <FormField
        label="Buffer (0–0.5)"
        hint={`${percent(fxBuffer)} added · prices at ${Number.isFinite(shownRate) ? Number(shownRate.toFixed(4)) : "—"} ${code} per USD`}
        error={errors.fxBuffer?.message}
      >
        <Input
          type="number"
          inputMode="decimal"
          step="any"
          {...form.register("fxBuffer", { valueAsNumber: true })}
        />
      </FormField>
      <Button type="submit" className="sm:mt-7" disabled={!isDirty || isSubmitting}>
        {isSubmitting ? "Saving..." : "Save"}
        <span className="sr-only"> {code} rate</span>
      </Button>
    </form>
  );
}
