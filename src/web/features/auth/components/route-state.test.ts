import { describe, expect, test } from "vitest";
import { readState, returnPath } from "#web/features/auth/components/route-state";

describe("where signing in returns to", () => {
  test("the guarded page the visitor came from, with its query and fragment", () => {
    expect(returnPath({ pathname: "/dashboard/orders", search: "?page=2", hash: "#o-1" }, "/")).toBe(
      "/dashboard/orders?page=2#o-1",
    );
  });

  test("never another site: protocol-relative, backslash and absolute addresses fall back", () => {
    for (const pathname of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "https://evil.example/x",
      "javascript:alert(1)",
    ]) {
      expect(returnPath({ pathname }, "/dashboard"), pathname).toBe("/dashboard");
    }
    expect(returnPath(undefined, "/")).toBe("/");
  });

  test("navigation state is read defensively: anything but an object reads as nothing", () => {
    expect(readState<{ email: string }>(null)).toEqual({});
    expect(readState<{ email: string }>("stale")).toEqual({});
    expect(readState<{ email: string }>({ email: "a@b.test" })).toEqual({ email: "a@b.test" });
  });
});
