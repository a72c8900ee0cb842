import { useSyncExternalStore } from "react";

/**
 * One pattern for every value kept in localStorage (theme, currency, cart): parsed once, shared by
 * every component through useSyncExternalStore, and kept in step with other tabs by the storage event.
 */
export function createLocalStore<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialize: (value: T) => string,
) {
  const listeners = new Set<() => void>();
  const read = () => {
    try {
      return parse(localStorage.getItem(key));
    } catch {
      return parse(null);
    }
  };
  let current = typeof localStorage === "undefined" ? parse(null) : read();

  if (typeof window !== "undefined") {
    window.addEventListener("storage", (event) => {
      if (event.key !== key && event.key !== null) return;
      current = read();
      for (const listener of listeners) listener();
    });
  }

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  // What the server renders with: nothing stored. React reads it while it hydrates a page the server
  // drew, so the first render matches the markup, then re-renders with what this browser stored.
  const onServer = parse(null);

  return {
    get: () => current,
    subscribe,
    set(value: T) {
      current = value;
      try {
        localStorage.setItem(key, serialize(value));
      } catch (error) {
        console.warn(`Could not store ${key}`, error);
      }
      for (const listener of listeners) listener();
    },
    use: () =>
      useSyncExternalStore(
        subscribe,
        () => current,
        () => onServer,
      ),
  };
}
