import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createLocalStore } from "#web/lib/local-store";

/** A browser's localStorage and storage events, without a DOM: a Map and an EventTarget. */
let stored: Map<string, string>;
let windowEvents: EventTarget;
beforeEach(() => {
  stored = new Map();
  windowEvents = new EventTarget();
  vi.stubGlobal("localStorage", {
    getItem: (key: string) => stored.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (value.length > 20) throw new DOMException("quota", "QuotaExceededError");
      stored.set(key, value);
    },
  });
  vi.stubGlobal("window", windowEvents);
});
afterEach(() => vi.unstubAllGlobals());

const theme = () =>
  createLocalStore<"light" | "dark">("theme", (raw) => (raw === "dark" ? "dark" : "light"), String);
const storageEvent = (key: string | null) => Object.assign(new Event("storage"), { key });

describe("a value kept in localStorage", () => {
  test("starts from what the browser stored, parsed; nothing or garbage reads as the default", () => {
    expect(theme().get()).toBe("light");
    stored.set("theme", "dark");
    expect(theme().get()).toBe("dark");
    stored.set("theme", "<script>");
    expect(theme().get()).toBe("light");
  });

  test("a change is stored and told to every subscriber until it leaves", () => {
    const store = theme();
    const seen: string[] = [];
    const leave = store.subscribe(() => seen.push(store.get()));
    store.set("dark");
    expect(stored.get("theme")).toBe("dark");
    expect(seen).toEqual(["dark"]);
    leave();
    store.set("light");
    expect(seen).toEqual(["dark"]);
  });

  test("another tab's change (the storage event) is read again; other keys are ignored", () => {
    const store = theme();
    stored.set("theme", "dark");
    windowEvents.dispatchEvent(storageEvent("currency"));
    expect(store.get()).toBe("light");
    windowEvents.dispatchEvent(storageEvent("theme"));
    expect(store.get()).toBe("dark");
    // A storage event without a key means localStorage was cleared.
    stored.clear();
    windowEvents.dispatchEvent(storageEvent(null));
    expect(store.get()).toBe("light");
  });

  test("a browser that refuses to store (quota, private mode) keeps the value for this page and warns", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const long = createLocalStore<string>("note", (raw) => raw ?? "", String);
    long.set("x".repeat(40));
    expect(long.get()).toBe("x".repeat(40));
    expect(stored.has("note")).toBe(false);
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
  });
});
