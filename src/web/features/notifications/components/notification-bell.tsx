import { Bell } from "lucide-react";
import { Link } from "react-router";
import { paths } from "#domain/routes";
import { useUnreadCount } from "#web/features/notifications/api/notifications";
import { cn } from "#web/lib/utils";

/** The bell's accessible name, with the count a screen reader announces. */
const bellLabel = (unread: number) =>
  unread === 0 ? "Notifications, none unread" : `Notifications, ${unread} unread`;

/**
 * The header's bell for a signed-in person: the unread count, and a link to the Notifications view
 * (whose list loads only there). Its accessible name says the count.
 */
export function NotificationBell({
  className,
  withLabel = false,
}: {
  className?: string;
  withLabel?: boolean;
}) {
  const { data: unread = 0 } = useUnreadCount(true);
  return (
    <Link
      to={paths.dashboard("notifications")}
      className={cn("relative inline-flex items-center gap-2 rounded-md p-2 hover:bg-accent", className)}
      aria-label={bellLabel(unread)}
      data-testid="notification-bell"
    >
      <Bell className="size-5" aria-hidden />
      {withLabel && <span className="text-sm font-medium">Notifications ({unread})</span>}
      {!withLabel && unread > 0 && (
        <span
          className="absolute -top-0.5 -right-0.5 flex min-w-5 items-center justify-center rounded-full bg-primary px-1 text-[11px] font-bold text-primary-foreground"
          data-testid="notification-count"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      )}
    </Link>
  );
}
