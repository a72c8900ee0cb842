/** Whether a call of the seller API went through (2xx) or was refused or failed (4xx, 5xx). */
export const callSucceeded = (status: number) => status >= 200 && status < 300;

const known: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No content",
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  429: "Too many requests",
  500: "Server error",
  503: "Unavailable",
};

/** "200 OK", "403 Forbidden": a status as the access log shows it, its number and what it means. */
export function callStatusText(status: number): string {
  const words =
    known[status] ??
    (callSucceeded(status) ? "OK" : status >= 500 ? "Server error" : status >= 400 ? "Refused" : "");
  return words ? `${status} ${words}` : String(status);
}
