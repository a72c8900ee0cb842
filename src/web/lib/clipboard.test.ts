import { afterEach, expect, test, vi } from "vitest";
import { copyText } from "#web/lib/clipboard";
import { showToast } from "#web/lib/lazy-toast";

vi.mock("#web/lib/lazy-toast", () => ({ showToast: vi.fn() }));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(showToast).mockClear();
});

test("a copy says so with the caller's toast", async () => {
  const writeText = vi.fn(() => Promise.resolve());
  vi.stubGlobal("navigator", { clipboard: { writeText } });
  expect((await copyText("SB-7K3M", { title: "Reference copied" }, "reference")).ok).toBe(true);
  expect(writeText).toHaveBeenCalledWith("SB-7K3M");
  expect(vi.mocked(showToast).mock.calls).toEqual([
    ["success", "Reference copied", { description: undefined, id: undefined }],
  ]);
});

test("a refused copy, or a browser with no clipboard, asks to copy by hand", async () => {
  vi.stubGlobal("navigator", {
    clipboard: { writeText: () => Promise.reject(new Error("NotAllowedError")) },
  });
  expect((await copyText("key", { title: "Copied" }, "key")).ok).toBe(false);
  vi.stubGlobal("navigator", {});
  expect((await copyText("key", { title: "Copied" }, "key")).ok).toBe(false);
  const failure = [
    "error",
    "Copy failed",
    { description: "Select the key and copy it by hand.", id: undefined },
  ];
  expect(vi.mocked(showToast).mock.calls).toEqual([failure, failure]);
});
