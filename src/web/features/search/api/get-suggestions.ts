import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** Fewer letters than this match too much to be worth a request. */
export const SUGGEST_MIN_LENGTH = 2;

export function useSuggestions(text: string) {
  const q = text.trim();
  return useQuery({
    queryKey: ["search", "suggestions", q.toLowerCase()],
    queryFn: ({ signal }) => call("GET /search/suggestions", { query: { q } }, { signal }),
    enabled: q.length >= SUGGEST_MIN_LENGTH,
    staleTime: 30_000,
    // The list stays while the next word's suggestions load, instead of flickering empty.
    placeholderData: keepPreviousData,
  });
}
