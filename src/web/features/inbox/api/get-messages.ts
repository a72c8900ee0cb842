import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const messagesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ["inbox", "messages", page],
    queryFn: () => call("GET /admin/inbox/messages", { query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useMessages(page: number) {
  return useQuery(messagesQueryOptions(page));
}
