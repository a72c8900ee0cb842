import { useState } from "react";
import { Link } from "react-router";
import { formatDateTime } from "#domain/dates";
import type { Notification } from "#domain/notifications";
import { PagedList } from "#web/components/layout/paged-list";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { useMarkRead, useNotifications } from "#web/features/notifications/api/notifications";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** The dashboard's Notifications view: what asks the reader to act, newest first, each with its link. */
export function NotificationsView() {
  const [page, setPage] = useState(1);
  const query = useNotifications(page);
  const markRead = useMarkRead();
  const anyUnread = query.data?.items.some((item) => !item.read) ?? false;
  return (
    <ViewCard
      title="Notifications"
      description="Sales to ship, refund requests and messages, decisions on your listings, payouts and spending-cap alerts: everything that asks you to act. Each is also sent to you by e-mail."
      action={
        anyUnread ? (
          <Button
            variant="outline"
            size="sm"
            disabled={markRead.isPending}
            onClick={() =>
              runMutation(markRead.mutateAsync(undefined), {
                error: { title: "Could not mark notifications as read", show: "client" },
              })
            }
          >
            Mark all as read
          </Button>
        ) : undefined
      }
    >
      <PagedList
        query={query}
        what="notifications"
        empty="No notifications yet. When something needs you, such as a sale to ship or a refund request, it appears here."
        onPage={setPage}
      >
        {(items) => (
          <ul className="flex flex-col divide-y divide-border" data-testid="notification-list">
            {items.map((item) => (
              <NotificationItem key={item.id} item={item} />
            ))}
          </ul>
        )}
      </PagedList>
    </ViewCard>
  );
}

function NotificationItem({ item }: { item: Notification }) {
  const markRead = useMarkRead();
  const read = () => {
    if (!item.read) markRead.mutate(item.id);
  };
  return (
    <li className="flex flex-col gap-2 py-4 first:pt-0" data-testid="notification" data-read={item.read}>
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 className={cn("text-sm break-words", item.read ? "font-medium" : "font-semibold")}>
          {!item.read && (
            <span className="mr-2 inline-block size-2 rounded-full bg-primary align-middle" aria-hidden />
          )}
          {item.title}
          {!item.read && <span className="sr-only"> (unread)</span>}
        </h3>
        <time className="text-xs text-muted-foreground" dateTime={item.createdAt}>
          {formatDateTime(item.createdAt)}
        </time>
      </div>
      <p className="text-sm break-words whitespace-pre-line text-muted-foreground">{item.body}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm" variant={item.read ? "outline" : "default"}>
          <Link to={item.link} onClick={read}>
            {item.action}
          </Link>
        </Button>
        {!item.read && (
          <Button variant="ghost" size="sm" disabled={markRead.isPending} onClick={read}>
            Mark as read
          </Button>
        )}
      </div>
    </li>
  );
}
