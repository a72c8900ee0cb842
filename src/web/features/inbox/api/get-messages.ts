import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { InboxMessage } from "#domain/inbound";
import type { Paged } from "#domain/paging";
import { api } from "#web/lib/api";

export const messagesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ["inbox", "messages", page],
    queryFn: () => api<Paged<InboxMessage>>("/admin/inbox/messages", { query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useMessages(page: number) {
  return useQuery(messagesQueryOptions(page));
}
