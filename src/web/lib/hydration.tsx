import { type ReactNode, Suspense, useEffect, useId, useLayoutEffect } from "react";

/**
 * Taking over a page the server drew (decision 0020) in parts. React hydrates the page outside any
 * Suspense boundary at once, and each boundary later, at idle priority and in slices that yield to input
 * (a tap inside one not yet hydrated hydrates it first, then is handled). `HydrateLater` is such a
 * boundary; `watchHydration` tells when the last of them has been taken over.
 */
let watching: { done: () => void; rootCommitted: boolean } | null = null;
/** Parts drawn by the server that are still the server's markup, and those taken over already. */
const waiting = new Set<string>();
const hydrated = new Set<string>();

function settle() {
  if (!watching?.rootCommitted || waiting.size > 0) return;
  const { done } = watching;
  watching = null;
  hydrated.clear();
  done();
}

/** Settles once the page is hydrated; null on a page the browser draws itself, and once it has. */
let pageHydrated: Promise<void> | null = null;

/** Calls `done` once the page and every `HydrateLater` part in it are hydrated. */
export function watchHydration(done: () => void) {
  let settled = () => {};
  pageHydrated = new Promise<void>((resolve) => {
    settled = () => {
      pageHydrated = null;
      resolve();
    };
    // Only a safety net: a part that never hydrates (its code failed to load) must not hold every
    // answer back for good. A slow phone takes a page over in a second or two.
    setTimeout(settled, HYDRATION_WAIT_LIMIT_MS);
  });
  watching = {
    done: () => {
      settled();
      done();
    },
    rootCommitted: false,
  };
}

const HYDRATION_WAIT_LIMIT_MS = 10_000;

/**
 * While the page the server drew is being hydrated, a promise that resolves once it is; null otherwise. The parts hydrate one after the other, so an answer
 * that came while some were still the server's markup would let them render something the server did not
 * draw (the account, once loaded, in the header): a hydration mismatch, which React resolves by drawing
 * the part again. The API's reads wait for this before they answer (`lib/api.ts`).
 */
export const untilHydrated = () => pageHydrated;

/** Rendered last in the hydrated tree: its effect runs when everything outside the parts is hydrated. */
export function RootHydrated() {
  useEffect(() => {
    if (!watching) return;
    watching.rootCommitted = true;
    settle();
  }, []);
  return null;
}

/** A part of the page hydrated after the rest, in work of its own (each product card, the filters, the footer). */
export function HydrateLater({ children }: { children: ReactNode }) {
  const part = useId();
  // The part's own effect runs first when it hydrates with its parent; otherwise it is still waiting.
  useLayoutEffect(() => {
    if (!watching || hydrated.has(part)) return;
    waiting.add(part);
    return () => {
      waiting.delete(part);
      settle();
    };
  }, [part]);
  return (
    <Suspense fallback={null}>
      <Part part={part}>{children}</Part>
    </Suspense>
  );
}

function Part({ part, children }: { part: string; children: ReactNode }) {
  useLayoutEffect(() => {
    if (!watching) return;
    hydrated.add(part);
    waiting.delete(part);
    settle();
  }, [part]);
  return children;
}
