import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { InboxMessage, InboxPage } from "#domain/inbound";
import { api } from "#web/lib/api";

export const messagesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ["inbox", "messages", page],
    queryFn: () => api<InboxPage<InboxMessage>>("/admin/inbox/messages", { query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useMessages(page: number) {
  return useQuery(messagesQueryOptions(page));
}
