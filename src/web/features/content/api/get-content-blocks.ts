import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#web/lib/api";

export const contentBlocksQueryOptions = () =>
  queryOptions({
    queryKey: ["content-blocks"],
    queryFn: () => api<{ key: string; content: string }[]>("/content-blocks"),
    staleTime: 5 * 60_000,
  });

/** An admin-editable text, or the built-in default while loading, when missing or when loading failed. */
export function useContentBlock(key: string, fallback: string): string {
  const { data } = useQuery(contentBlocksQueryOptions());
  const content = data?.find((block) => block.key === key)?.content;
  return content?.trim() ? content : fallback;
}
