import type { ExternalToast } from "sonner";

export type ToastOptions = Omit<ExternalToast, "id"> & {
  /**
   * A key for what the toast stands for (the display currency): a new toast under a key replaces the one
   * shown under it, which leaves, instead of updating it in place. An update in place keeps the old
   * toast's clock (the last choice could show for a moment only) and is lost when it comes while that
   * toast is already leaving.
   */
  id?: string;
};

/** The sonner id of the toast shown under each key. */
const shownUnder = new Map<string, string>();
let shown = 0;

/*
 * Toasts for code that runs on every page (the header, home). A static import of sonner would put it in
 * the first paint's JavaScript although most visits never show a toast; sonner keeps toasts raised
 * before its Toaster subscribes, so loading it on the first toast loses nothing. Screens loaded later
 * import `toast` from sonner directly.
 */
export function showToast(kind: "success" | "error" | "info", title: string, options: ToastOptions = {}) {
  const { id: key, ...rest } = options;
  let id: string | undefined;
  let previous: string | undefined;
  if (key) {
    previous = shownUnder.get(key);
    id = `${key}:${++shown}`;
    shownUnder.set(key, id);
  }
  void import("sonner").then(({ toast }) => {
    if (previous) toast.dismiss(previous);
    toast[kind](title, { ...rest, id });
  });
}
