/** One day in milliseconds; windows counted in days are counted in these, not calendar days. */
export const DAY_MS = 86_400_000;

/**
 * A formatter made on first use, not when the module loads: the first Intl formatter a page makes loads the
 * locale data (about 15 ms on a desktop, four times that on a phone, in one piece), which would otherwise
 * be paid while the browser evaluates the app's code.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

const day = onFirstUse(
  () =>
    new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "2-digit",
      year: "numeric",
      timeZone: "UTC",
    }),
);
const dayAndTime = onFirstUse(
  () =>
    new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    }),
);

/** 'Nov 22, 2026' (the spec's 'MMM dd, yyyy'), in UTC so every viewer and test sees the same day. */
export function formatDate(value: string | Date): string {
  return day().format(new Date(value));
}

/** 'Nov 22, 2026, 09:05 AM UTC'. */
export function formatDateTime(value: string | Date): string {
  return dayAndTime().format(new Date(value));
}

const relative = onFirstUse(() => new Intl.RelativeTimeFormat("en-US", { numeric: "auto" }));

/** Largest first: the first unit the difference reaches at least once is the one shown. */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** '3 minutes ago', 'yesterday', 'in 2 hours'; under a minute reads 'just now'. */
export function formatRelativeTime(value: string | Date, now: Date = new Date()): string {
  const seconds = Math.round((new Date(value).getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative().format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}
