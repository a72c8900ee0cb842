import { useEffect, useState } from "react";

export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * A search box mirrored to a stored value (usually the URL): it follows the value when that changes
 * elsewhere (back/forward, Reset Filters) and commits what is typed, trimmed, after a pause.
 */
export function useDebouncedInput(value: string, commit: (typed: string) => void, delayMs = 300) {
  const [text, setText] = useState(value);
  const typed = useDebounced(text.trim(), delayMs);
  useEffect(() => setText(value), [value]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the debounced text commits
  useEffect(() => {
    if (typed !== value) commit(typed);
  }, [typed]);
  return [text, setText] as const;
}
