import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const notificationsKey = ["notifications"] as const;
const unreadKey = [...notificationsKey, "unread"] as const;

/** The bell's count: asked only for a signed-in person, again when the tab comes back and each minute. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    queryKey: unreadKey,
    queryFn: () => call("GET /notifications/unread-count").then((r) => r.unread),
    enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

export const notificationsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...notificationsKey, "list", page],
    queryFn: () => call("GET /notifications", { query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useNotifications(page: number) {
  return useQuery(notificationsQueryOptions(page));
}

/** Marks one read (or all, with no id); the list and the bell follow the server's count. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id?: string) =>
      id ? call("POST /notifications/:id/read", { params: { id } }) : call("POST /notifications/read-all"),
    onSuccess: ({ unread }) => {
      queryClient.setQueryData(unreadKey, unread);
      return queryClient.invalidateQueries({ queryKey: [...notificationsKey, "list"] });
    },
  });
}
