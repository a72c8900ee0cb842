import { useEffect, useLayoutEffect, useRef } from "react";
import type { Location, NavigationType } from "react-router";

/** Kept in the history entry by a navigation that must not move the page (a ticked filter box). */
export const keepScroll = { keepScroll: true } as const;

const STORAGE_KEY = "stackbay-scroll-positions";

function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, number>;
  } catch {
    return {};
  }
}

/** What a person does that stops a restore still waiting: their scroll or keys win. */
const interruptions = ["wheel", "touchstart", "keydown", "pointerdown"] as const;

/** A restore still waiting for its page to grow tall enough; stopped by the next one. */
let pendingRestore: (() => void) | undefined;

/**
 * Scrolls back to `y`. A page returned to may not yet be as tall as it was (its list still loading, its
 * code still coming), and the browser stops at its current end: the scroll is then made again as the page
 * grows, for up to three seconds, unless the person scrolls, types or navigates first.
 */
function restoreTo(y: number) {
  pendingRestore?.();
  window.scrollTo(0, y);
  if (window.scrollY >= y - 1) return;
  const giveUpAt = performance.now() + 3_000;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of interruptions) window.removeEventListener(type, stop);
    if (pendingRestore === stop) pendingRestore = undefined;
  };
  const again = () => {
    window.scrollTo(0, y);
    if (window.scrollY >= y - 1 || performance.now() > giveUpAt) stop();
    else frame = requestAnimationFrame(again);
  };
  for (const type of interruptions) window.addEventListener(type, stop, { passive: true });
  pendingRestore = stop;
  frame = requestAnimationFrame(again);
}

/**
 * What the data router's `ScrollRestoration` did, for the declarative router (decision 0025): a new page
 * starts at its top (or at the element its `#hash` names), Back and Forward return to where the page was
 * left, and a reload of the tab to where it was. Positions are kept by history entry, in session storage.
 */
export function ScrollRestoration({
  location,
  navigationType,
}: {
  location: Location;
  navigationType: NavigationType;
}) {
  const positions = useRef<Record<string, number>>({});
  const shownKey = useRef<string | null>(null);
  // The position as of the last scroll: read once the next page is in the DOM, the browser would already
  // have clamped it to that page's height.
  const lastY = useRef(0);

  useEffect(() => {
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    const save = () => {
      if (shownKey.current !== null) positions.current[shownKey.current] = window.scrollY;
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(positions.current));
      } catch {
        // Storage full or refused: positions are only lost on reload.
      }
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", save);
    return () => {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", save);
    };
  }, []);

  useLayoutEffect(() => {
    const previous = shownKey.current;
    shownKey.current = location.key;
    if (previous === null) {
      window.history.scrollRestoration = "manual";
      positions.current = savedPositions();
      // Only a reload or Back/Forward returns a document to where it was: each document's first entry
      // has the same key ("default"), so a page loaded afresh (a link from outside, signing out) would
      // otherwise open where an earlier document of this tab was left.
      const [entry] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const returning = entry?.type === "reload" || entry?.type === "back_forward";
      const saved = returning ? positions.current[location.key] : undefined;
      if (saved !== undefined) restoreTo(saved);
      lastY.current = window.scrollY;
      return;
    }
    if (previous === location.key) return;
    pendingRestore?.();
    positions.current[previous] = lastY.current;
    const saved = positions.current[location.key];
    const state = location.state as { keepScroll?: boolean } | null;
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (navigationType === "POP" && saved !== undefined) restoreTo(saved);
    else if (state?.keepScroll) return;
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    lastY.current = window.scrollY;
  }, [location, navigationType]);

  return null;
}
