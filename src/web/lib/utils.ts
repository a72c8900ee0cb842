import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs));
}

/**
 * A ref that focuses its element once, as it mounts: for a field that appears because the person asked
 * for it (a reply box, a dialog's field). The `autoFocus` attribute only acts on page load. Being one
 * function, not a new one per render, it is not called again on re-renders.
 */
export function focusOnMount(element: HTMLElement | null) {
  element?.focus();
}
