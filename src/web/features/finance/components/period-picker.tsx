import { type FormEvent, useState } from "react";
import { type Period, periodSchema } from "#domain/finance";
import { type PeriodPreset, periodPresetLabels, periodPresets, presetPeriod } from "#domain/finance-period";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";

/** The preset a period is, seen from today, or "custom". */
export function presetOf(period: Period, today = new Date()): PeriodPreset | "custom" {
  return (
    periodPresets.find((preset) => {
      const p = presetPeriod(preset, today);
      return p.from === period.from && p.to === period.to;
    }) ?? "custom"
  );
}

/**
 * Chooses the period the figures cover: a preset applies at once; custom dates apply on "Show",
 * checked with the API's own period schema.
 */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (period: Period) => void }) {
  const [choice, setChoice] = useState<PeriodPreset | "custom">(() => presetOf(period));
  const [draft, setDraft] = useState<Period>(period);
  const [errors, setErrors] = useState<Partial<Record<keyof Period, string>>>({});

  const choose = (value: string) => {
    const next = value as PeriodPreset | "custom";
    setChoice(next);
    setErrors({});
    if (next === "custom") setDraft(period);
    else onChange(presetPeriod(next, new Date()));
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const parsed = periodSchema.safeParse(draft);
    if (!parsed.success) {
      const found: Partial<Record<keyof Period, string>> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof Period;
        found[key] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    onChange(parsed.data);
  };

  return (
    <form
      onSubmit={apply}
      noValidate
      aria-label="Choose the period"
      className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
      data-testid="period-picker"
    >
      <FormField label="Period" className="sm:w-48">
        <NativeSelect value={choice} onChange={(e) => choose(e.target.value)}>
          {periodPresets.map((preset) => (
            <option key={preset} value={preset}>
              {periodPresetLabels[preset]}
            </option>
          ))}
          <option value="custom">Custom dates</option>
        </NativeSelect>
      </FormField>
      {choice === "custom" && (
        <>
          <FormField label="From" error={errors.from} className="sm:w-44">
            <Input
              type="date"
              value={draft.from}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
            />
          </FormField>
          <FormField label="To (included)" error={errors.to} className="sm:w-44">
            <Input
              type="date"
              value={draft.to}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
            />
          </FormField>
          <Button type="submit" className="sm:mt-7">
            Show
          </Button>
        </>
      )}
    </form>
  );
}
