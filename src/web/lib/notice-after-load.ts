import { showToast } from "#web/lib/lazy-toast";

/*
 * A toast for the page an action ends on when that action loads the app afresh (deleting the account
 * does, as signing out does: nothing of the account stays in memory). It is kept in this tab's session
 * storage and shown once, by the next page load's start (`boot.tsx`).
 */
const KEY = "stackbay-notice";

export function noticeAfterLoad(title: string, description: string) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ title, description }));
  } catch {
    // Storage refused: the page still loads, only without the toast.
  }
}

export function showNoticeFromLastPage() {
  let notice: { title?: unknown; description?: unknown } | null = null;
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    notice = raw ? JSON.parse(raw) : null;
  } catch {
    return;
  }
  if (typeof notice?.title !== "string") return;
  showToast("success", notice.title, {
    description: typeof notice.description === "string" ? notice.description : undefined,
  });
}
