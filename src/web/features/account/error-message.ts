import { ApiError } from "#web/lib/api";

/** The server's own words for a refused request (4xx); anything else gets the screen's fallback text. */
export function serverMessage(error: unknown, fallback: string) {
  return error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;
}
