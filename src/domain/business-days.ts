/**
 * Business days for refund deadlines: Monday to Friday, counted in UTC (the platform's UAE working
 * week has been Monday to Friday since 2022). Public holidays are not skipped: a deadline that falls
 * after a holiday is one day shorter than a calendar would make it, which errs on the buyer's side.
 * A list of holiday dates (YYYY-MM-DD) can be passed when the operator maintains one.
 */
export function isBusinessDay(date: Date, holidays: ReadonlySet<string> = new Set()): boolean {
  const day = date.getUTCDay();
  return day !== 0 && day !== 6 && !holidays.has(date.toISOString().slice(0, 10));
}

/**
 * The moment `days` business days after `from`: the same time of day on the `days`-th business day
 * that follows. Requested on a Friday afternoon with 3 days → the next Wednesday afternoon; requested
 * on a Saturday → counting starts Monday, so Wednesday at the same time.
 */
export function addBusinessDays(from: Date, days: number, holidays: ReadonlySet<string> = new Set()): Date {
  if (!Number.isInteger(days) || days < 0)
    throw new RangeError(`Business days must be a whole number ≥ 0: ${days}`);
  const date = new Date(from.getTime());
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (isBusinessDay(date, holidays)) left--;
  }
  return date;
}
