import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ContentBlockKey, contentBlockRegistry } from "#domain/content-blocks";
import { call } from "#web/lib/api";

export const contentBlocksQueryOptions = () =>
  queryOptions({
    queryKey: ["content-blocks"],
    queryFn: () => call("GET /content-blocks"),
    staleTime: 5 * 60_000,
  });

/**
 * An admin-editable text, or its built-in default from the registry while loading, when unsaved or when
 * loading failed. It is plain text: render it as text, never as HTML.
 */
export function useContentBlock(key: ContentBlockKey): string {
  const { data } = useQuery(contentBlocksQueryOptions());
  const content = data?.find((block) => block.key === key)?.content;
  return content?.trim() ? content : contentBlockRegistry[key].defaultText;
}
