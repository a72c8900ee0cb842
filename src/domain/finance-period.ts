import { DAY_MS } from "#domain/dates";
import type { Period } from "#domain/finance";
import { fromUnits } from "#domain/money";
import { findTaxJurisdiction } from "#domain/tax";

/** Calendar helpers of the finance screen, pure so the server and the screen read a period the same way. */

const day = (date: Date) => date.toISOString().slice(0, 10);

/** The instants a period covers: from its first day's midnight (UTC) up to, not including, the day after `to`. */
export function periodBounds(period: Period): { start: Date; end: Date } {
  const start = new Date(`${period.from}T00:00:00.000Z`);
  const end = new Date(new Date(`${period.to}T00:00:00.000Z`).getTime() + DAY_MS);
  return { start, end };
}

export const periodPresets = ["this-month", "last-month", "this-year"] as const;
export type PeriodPreset = (typeof periodPresets)[number];

export const periodPresetLabels: Record<PeriodPreset, string> = {
  "this-month": "This month",
  "last-month": "Last month",
  "this-year": "This year",
};

/** A preset as calendar days (UTC) seen from `today`. */
export function presetPeriod(preset: PeriodPreset, today: Date): Period {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  switch (preset) {
    case "this-month":
      return {
        from: day(new Date(Date.UTC(year, month, 1))),
        to: day(new Date(Date.UTC(year, month + 1, 0))),
      };
    case "last-month":
      return {
        from: day(new Date(Date.UTC(year, month - 1, 1))),
        to: day(new Date(Date.UTC(year, month, 0))),
      };
    case "this-year":
      return { from: `${year}-01-01`, to: `${year}-12-31` };
  }
}

/** Ledger units (1/10,000 USD) as a USD number, only at the edge: every sum before this is in units. */
export function unitsToUsd(units: number): number {
  return Number(fromUnits(units));
}

/** A jurisdiction's tax by its name in the tax rules ("India GST", "UAE VAT"); another code reads "XX tax". */
export function jurisdictionLabel(code: string): string {
  return findTaxJurisdiction(code.toUpperCase())?.label ?? `${code} tax`;
}
