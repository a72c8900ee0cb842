import { describe, expect, test } from "vitest";
import { dashboardViews, isKnownPagePath, matchRoute, routePatterns } from "#domain/routes";

const sampleParams: Record<string, string> = { id: "abc", slug: "x", view: "saved" };

function fill(pattern: string): string {
  return pattern.replace(/:([a-z]+)/gi, (_match, name: string) => {
    const value = sampleParams[name];
    if (value === undefined) throw new Error(`No sample value for :${name} in ${pattern}`);
    return value;
  });
}

describe("matchRoute", () => {
  test("matches a static path with no params", () => {
    expect(matchRoute("/cart", "/cart")).toEqual({});
    expect(matchRoute("/", "/")).toEqual({});
    expect(matchRoute("/admin/pages/add", "/admin/pages/add")).toEqual({});
  });

  test("extracts a param", () => {
    expect(matchRoute("/products/:id", "/products/abc")).toEqual({ id: "abc" });
    expect(matchRoute("/pages/:slug", "/pages/about-us")).toEqual({ slug: "about-us" });
  });

  test("extracts a param between static segments", () => {
    expect(matchRoute("/admin/products/:id/edit", "/admin/products/42/edit")).toEqual({ id: "42" });
    expect(matchRoute("/admin/products/:id/edit", "/admin/products/42/view")).toBeNull();
  });

  test("decodes percent-encoded params", () => {
    expect(matchRoute("/pages/:slug", "/pages/hello%20world")).toEqual({ slug: "hello world" });
  });

  test("ignores trailing slashes", () => {
    expect(matchRoute("/products/:id", "/products/abc/")).toEqual({ id: "abc" });
    expect(matchRoute("/cart", "/cart//")).toEqual({});
  });

  test("rejects a different number of segments", () => {
    expect(matchRoute("/products/:id", "/products")).toBeNull();
    expect(matchRoute("/products/:id", "/products/a/b")).toBeNull();
    expect(matchRoute("/products", "/products/abc")).toBeNull();
    expect(matchRoute("/", "/cart")).toBeNull();
  });

  test("rejects an empty param", () => {
    expect(matchRoute("/products/:id", "/products/")).toBeNull();
    expect(matchRoute("/admin/products/:id/edit", "/admin/products//edit")).toBeNull();
  });

  test("rejects a different static segment", () => {
    expect(matchRoute("/cart", "/carts")).toBeNull();
    expect(matchRoute("/products/:id", "/product/abc")).toBeNull();
    expect(matchRoute("/cart", "/Cart")).toBeNull();
  });
});

describe("isKnownPagePath", () => {
  const patterns = Object.entries(routePatterns);

  test("covers every route pattern", () => {
    expect(patterns.length).toBe(42);
  });

  test.each(patterns)("%s (%s) is known with its params filled in", (_name, pattern) => {
    expect(isKnownPagePath(fill(pattern))).toBe(true);
  });

  test.each(patterns.filter(([, pattern]) => pattern !== "/"))(
    "%s (%s) is known with a trailing slash",
    (_name, pattern) => {
      expect(isKnownPagePath(`${fill(pattern)}/`)).toBe(true);
    },
  );

  test("spot-checks concrete paths", () => {
    expect(isKnownPagePath("/")).toBe(true);
    expect(isKnownPagePath("/products/abc")).toBe(true);
    expect(isKnownPagePath("/pages/x")).toBe(true);
    expect(isKnownPagePath("/dashboard/saved")).toBe(true);
    expect(isKnownPagePath("/admin/products/abc/edit")).toBe(true);
    expect(isKnownPagePath("/product/abc")).toBe(true);
    expect(isKnownPagePath("/admin/pages/edit/abc")).toBe(true);
  });

  test.each(dashboardViews)("dashboard view %s is known", (view) => {
    expect(isKnownPagePath(`/dashboard/${view}`)).toBe(true);
  });

  test("lists the dashboard views", () => {
    expect(dashboardViews).toEqual([
      "saved",
      "licenses",
      "profile",
      "wallet",
      "settings",
      "reseller",
      "refunds",
    ]);
  });

  test.each([
    "/nope",
    "/products/a/b",
    "/dashboard/unknown-view",
    "/dashboard/Saved",
    "/admin",
    "/admin/products/abc",
    "/admin/products/abc/edit/more",
    "/cart/extra",
  ])("%s is not known", (path) => {
    expect(isKnownPagePath(path)).toBe(false);
  });
});

test("malformed percent-encoding is an unknown path, not a crash", () => {
  expect(isKnownPagePath("/products/%E0%A4%A")).toBe(false);
});
