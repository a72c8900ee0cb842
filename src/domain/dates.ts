const day = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "2-digit",
  year: "numeric",
  timeZone: "UTC",
});
const dayAndTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

/** 'Nov 22, 2026' (the spec's 'MMM dd, yyyy'), in UTC so every viewer and test sees the same day. */
export function formatDate(value: string | Date): string {
  return day.format(new Date(value));
}

/** 'Nov 22, 2026, 09:05 AM UTC'. */
export function formatDateTime(value: string | Date): string {
  return dayAndTime.format(new Date(value));
}
