import { toast } from "sonner";
import { expect, test, vi } from "vitest";
import { showToast } from "#web/lib/lazy-toast";

const success = vi.spyOn(toast, "success").mockReturnValue("");
const info = vi.spyOn(toast, "info").mockReturnValue("");
const dismiss = vi.spyOn(toast, "dismiss").mockReturnValue("");

const settle = () => new Promise((done) => setTimeout(done, 0));

test("a toast under a key replaces the one shown under it: that one is dismissed, the new one is new", async () => {
  showToast("success", "Currency Changed", { id: "currency", description: "Switched to Euro (€)" });
  showToast("success", "Currency Changed", { id: "currency", description: "Switched to Pound Sterling (£)" });
  showToast("info", "Saved");
  await settle();
  const [first, second] = success.mock.calls.map(([, options]) => options?.id);
  expect(first).toBeTypeOf("string");
  expect(second).toBeTypeOf("string");
  expect(first).not.toBe(second);
  expect(dismiss.mock.calls).toEqual([[first]]);
  expect(success.mock.calls[1]).toEqual([
    "Currency Changed",
    { id: second, description: "Switched to Pound Sterling (£)" },
  ]);
  // No key: nothing is dismissed, sonner numbers the toast itself.
  expect(info.mock.calls).toEqual([["Saved", { id: undefined }]]);
});
