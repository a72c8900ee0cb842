/**
 * iCalendar files (RFC 5545) of all-day events, as a calendar application imports them: CRLF line ends,
 * text values escaped (backslash, semicolon, comma, newline) and every line longer than 75 octets folded
 * onto continuation lines that start with a space, never inside a UTF-8 character.
 */

/** One all-day event on `date` (a UTC calendar day). */
export type IcsEvent = {
  /** Globally unique and stable: the same event keeps it from one download to the next. */
  uid: string;
  date: Date;
  summary: string;
  description?: string;
  url?: string;
};

/** A TEXT value as RFC 5545 §3.3.11 writes it. */
export function icsText(value: string): string {
  return value
    .replaceAll("\\", "\\\\")
    .replaceAll(";", "\\;")
    .replaceAll(",", "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");
}

const encoder = new TextEncoder();
const LINE_OCTETS = 75;

/** A content line folded at 75 octets (§3.1): each continuation line begins with one space. */
export function icsFold(line: string): string {
  if (encoder.encode(line).length <= LINE_OCTETS) return line;
  const lines: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = encoder.encode(char).length;
    // The leading space of a continuation line counts towards its 75 octets.
    if (octets + size > LINE_OCTETS) {
      lines.push(current);
      current = " ";
      octets = 1;
    }
    current += char;
    octets += size;
  }
  lines.push(current);
  return lines.join("\r\n");
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A DATE value: the UTC calendar day, `YYYYMMDD`. */
export function icsDate(date: Date): string {
  return `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

/** A DATE-TIME value in UTC, `YYYYMMDDTHHMMSSZ`. */
export function icsDateTime(date: Date): string {
  return `${icsDate(date)}T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
}

/**
 * A VCALENDAR of `events`, each an all-day VEVENT (DTEND the next day, shown as free time), stamped
 * `stamp` (DTSTAMP: when the file was made).
 */
export function icsCalendar(options: {
  /** The product identifier, `-//Company//Product//EN`. */
  prodId: string;
  /** The calendar's name, as applications that read X-WR-CALNAME show it. */
  name: string;
  stamp: Date;
  events: readonly IcsEvent[];
}): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${options.prodId}`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${icsText(options.name)}`,
  ];
  for (const event of options.events) {
    const next = new Date(
      Date.UTC(event.date.getUTCFullYear(), event.date.getUTCMonth(), event.date.getUTCDate() + 1),
    );
    lines.push(
      "BEGIN:VEVENT",
      `UID:${event.uid}`,
      `DTSTAMP:${icsDateTime(options.stamp)}`,
      `DTSTART;VALUE=DATE:${icsDate(event.date)}`,
      `DTEND;VALUE=DATE:${icsDate(next)}`,
      `SUMMARY:${icsText(event.summary)}`,
    );
    if (event.description !== undefined) lines.push(`DESCRIPTION:${icsText(event.description)}`);
    if (event.url !== undefined) lines.push(`URL:${event.url}`);
    lines.push("TRANSP:TRANSPARENT", "END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map((line) => `${icsFold(line)}\r\n`).join("");
}
