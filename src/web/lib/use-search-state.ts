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
 * A screen's state kept in the URL (so it survives reload and can be shared): the current params, the
 * page number (1 when missing or bad), and `go`, which sets or (with undefined or "") removes keys.
 */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const go = (next: Record<string, string | undefined>) => setParams(withChanges(params, next));
  return { params, page: pageOf(params), go };
}
