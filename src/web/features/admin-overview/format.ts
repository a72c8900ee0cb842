const dayLabel = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "Nov 3" for a `YYYY-MM-DD` day, read in UTC as the server counts days. */
export const formatDay = (date: string) => dayLabel.format(new Date(`${date}T00:00:00Z`));
