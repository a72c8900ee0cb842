import { useEffect, useState } from "react";

/**
 * False on the first render, true once the browser is idle after it. For parts loaded with `lazy` that
 * no first paint needs (the toaster, the footer's newsletter form): rendered at once, their imports
 * would start during the first render and compete with the page's own code and data for the network.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(() => setReady(true), { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(timer);
  }, []);
  return ready;
}
