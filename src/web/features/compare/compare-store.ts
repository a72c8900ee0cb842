import { isProductId, MAX_COMPARE } from "#domain/compare-ids";
import { createLocalStore } from "#web/lib/local-store";
import { toastInvalid } from "#web/lib/mutation";

/** A product in the compare tray: its name is kept so the tray can say what it holds without a request. */
export type TrayItem = { id: string; name: string };

function parseTray(raw: string | null): TrayItem[] {
  if (!raw) return [];
  const value: unknown = JSON.parse(raw);
  if (!Array.isArray(value)) return [];
  const items = value.filter(
    (item): item is TrayItem =>
      typeof item === "object" &&
      item !== null &&
      typeof item.id === "string" &&
      isProductId(item.id) &&
      typeof item.name === "string",
  );
  return items.slice(0, MAX_COMPARE);
}

export const compareStore = createLocalStore<TrayItem[]>("stackbay.compare", parseTray, (items) =>
  JSON.stringify(items),
);

export function useCompareTray() {
  return compareStore.use();
}

export const compareActions = {
  /** Adds the product, or says why not when the tray is full; answers whether it is in the tray now. */
  add(item: TrayItem): boolean {
    const items = compareStore.get();
    if (items.some((i) => i.id === item.id)) return true;
    if (items.length >= MAX_COMPARE) {
      toastInvalid(
        "Compare is full",
        `You can compare up to ${MAX_COMPARE} products. Remove one to add ${item.name}.`,
      );
      return false;
    }
    compareStore.set([...items, item]);
    return true;
  },
  remove(id: string) {
    compareStore.set(compareStore.get().filter((i) => i.id !== id));
  },
  clear() {
    compareStore.set([]);
  },
};
