import { useSearchParams } from "react-router";

/** The page number a screen's URL asks for: 1 when missing or not a positive whole number. */
export function pageOf(params: URLSearchParams): number {
  return Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
}

/** `params` with `next` applied: a value sets its key, undefined or "" removes it; the rest is kept. */
export function withChanges(params: URLSearchParams, next: Record<string, string | undefined>) {
  const merged = new URLSearchParams(params);
  for (const [key, value] of Object.entries(next)) {
    if (value) merged.set(key, value);
    else merged.delete(key);
  }
  return merged;
}

/**
 * The address's query as it is at this moment. The router draws a new URL in a transition, after the
 * address has already changed: a second change made in between (a role picked just after the search box
 * committed its text) must build on the new address, not on the params of the last drawing, or it would
 * bring back what the first change removed.
 */
export const currentParams = () => new URLSearchParams(window.location.search);

/**
 * A screen's state kept in the URL (so it survives reload and can be shared): the current params, the
 * page number (1 when missing or bad), and `go`, which sets or (with undefined or "") removes keys.
 */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const go = (next: Record<string, string | undefined>) => setParams(withChanges(currentParams(), next));
  return { params, page: pageOf(params), go };
}
