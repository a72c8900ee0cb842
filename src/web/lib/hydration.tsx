import { type ReactElement, Suspense, useSyncExternalStore } from "react";

/**
 * While the app takes over a page the server drew (decision 0020), values the server could not know
 * (what this browser stored, what this device prefers) read as the server read them, so the first render
 * matches its markup and Preact can adopt the elements as they are. Right after, they read as they are,
 * and whatever differs is re-rendered the usual way.
 */
let hydrating = false;
const listeners = new Set<() => void>();
/** Parts (`HydrateLater`) waiting for their turn, and those whose turn came. */
const waiting = new Map<string, { promise: Promise<void>; release: () => void }>();
const released = new Set<string>();

/**
 * Hydrates the page with `take`, then each `HydrateLater` part in a task of its own, then tells the
 * stores that hydration is over, then calls `done`. One long task would keep the page from answering a
 * tap for all of it.
 */
export function hydrateWith(take: () => void, done: () => void) {
  hydrating = true;
  take();
  // A message is a new task at once; nested timeouts are held back 4 ms each after the fifth.
  const channel = new MessageChannel();
  const inNextTask = () => channel.port2.postMessage(null);
  const next = () => {
    const [part, turn] = waiting.entries().next().value ?? [];
    if (part && turn) {
      waiting.delete(part);
      released.add(part);
      turn.release();
      inNextTask();
      return;
    }
    channel.port1.close();
    hydrating = false;
    released.clear();
    for (const listener of listeners) listener();
    done();
  };
  channel.port1.onmessage = next;
  inNextTask();
}

function Turn({ part, children }: { part: string; children: ReactElement }) {
  if (hydrating && !released.has(part)) {
    let turn = waiting.get(part);
    if (!turn) {
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      turn = { promise, release };
      waiting.set(part, turn);
    }
    // Suspending while hydrating keeps the server's markup as it is until the turn comes.
    throw turn.promise;
  }
  return children;
}

/**
 * A part of the page hydrated after the rest, in its own task (`part` names it, unique on the page);
 * rendered at once otherwise. `children` must be one element: that is what Preact keeps while it waits.
 */
export function HydrateLater({ part, children }: { part: string; children: ReactElement }) {
  return (
    <Suspense fallback={null}>
      <Turn part={part}>{children}</Turn>
    </Suspense>
  );
}

/** `subscribe` that also tells when hydration ends: made once per store, so its identity never changes. */
export function withHydration(subscribe: (listener: () => void) => () => void) {
  return (listener: () => void) => {
    const stop = subscribe(listener);
    listeners.add(listener);
    return () => {
      stop();
      listeners.delete(listener);
    };
  };
}

/**
 * useSyncExternalStore with React's server snapshot honoured (Preact's compat layer ignores it): the
 * server's value while hydrating. `subscribe` must come from `withHydration`.
 */
export function useClientValue<T>(
  subscribe: (listener: () => void) => () => void,
  get: () => T,
  getOnServer: () => T,
): T {
  return useSyncExternalStore(subscribe, () => (hydrating ? getOnServer() : get()));
}
