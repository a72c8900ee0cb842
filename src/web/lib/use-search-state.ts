import { useSearchParams } from "react-router";

/**
 * A screen's state kept in the URL (so it survives reload and can be shared): the current params, the
 * page number (1 when missing or bad), and `go`, which sets or (with undefined or "") removes keys.
 */
export function useSearchState() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const go = (next: Record<string, string | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value) merged.set(key, value);
      else merged.delete(key);
    }
    setParams(merged);
  };
  return { params, page, go };
}
