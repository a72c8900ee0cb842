import type { ExternalToast } from "sonner";

/*
 * Toasts for code that runs on every page (the header, home). A static import of sonner would put it in
 * the first paint's JavaScript although most visits never show a toast; sonner keeps toasts raised
 * before its Toaster subscribes, so loading it on the first toast loses nothing. Screens loaded later
 * import `toast` from sonner directly.
 */
export function showToast(kind: "success" | "error" | "info", title: string, options?: ExternalToast) {
  void import("sonner").then(({ toast }) => toast[kind](title, options));
}
