import { describe, expect, test } from "vitest";
import { dashboardViewTitles } from "#domain/dashboard-titles";
import {
  absoluteUrl,
  crawlerDisallowedPaths,
  dashboardViews,
  HOSTED_TEST_PAGES,
  href,
  isKnownPagePath,
  matchRoute,
  paths,
  routePatterns,
  sitemapStaticPaths,
} from "#domain/routes";

const sampleParams: Record<string, string> = {
  id: "abc",
  slug: "x",
  view: "saved",
  ref: "tps_1",
  accountId: "acct_test_1",
};

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
    expect(patterns.length).toBe(58);
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
    expect(isKnownPagePath("/compare")).toBe(true);
    expect(isKnownPagePath("/pages/x")).toBe(true);
    expect(isKnownPagePath("/vendors/kestrelbyte")).toBe(true);
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
      "sales",
      "notifications",
      "saved",
      "licenses",
      "subscriptions",
      "profile",
      "wallet",
      "settings",
      "reseller",
      "refunds",
      "earnings",
      "shipping",
      "questions",
      "storefront",
      "recurring",
      "api",
      "webhooks",
    ]);
  });

  test.each([
    "/nope",
    "/products/a/b",
    "/dashboard/unknown-view",
    "/dashboard/Saved",
    "/admin/nope",
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

describe("href", () => {
  const patterns = Object.entries(routePatterns);

  test.each(patterns)("%s (%s) builds a known path that gives its params back", (_name, pattern) => {
    const params = Object.fromEntries(
      [...pattern.matchAll(/:([a-z]+)/gi)].map(([, name]) => [name, sampleParams[name ?? ""] ?? ""]),
    );
    // The table is typed over literal patterns; here they are walked as plain strings.
    const path = (href as (pattern: string, params?: Record<string, string>) => string)(pattern, params);
    expect(path).toBe(fill(pattern));
    expect(matchRoute(pattern, path)).toEqual(params);
    expect(isKnownPagePath(path)).toBe(true);
  });

  test("percent-encodes params so odd ids still land on their page", () => {
    const path = href(routePatterns.product, { id: "a b/c?d" });
    expect(path).toBe("/products/a%20b%2Fc%3Fd");
    expect(matchRoute(routePatterns.product, path)).toEqual({ id: "a b/c?d" });
  });

  test("a missing param is a programming error, not a broken link", () => {
    const loose = href as (pattern: string, params?: Record<string, string>) => string;
    expect(() => loose(routePatterns.invoice, {})).toThrow("No value for :id");
  });
});

describe("paths", () => {
  test("builds the links the app writes from the table", () => {
    expect(paths.home()).toBe("/");
    expect(paths.product("p1")).toBe("/products/p1");
    expect(paths.products({ search: "cloud", category: "saas" })).toBe(
      "/products?search=cloud&category=saas",
    );
    expect(paths.invoice("o 1")).toBe("/dashboard/orders/o%201/invoice");
    expect(paths.dashboard()).toBe("/dashboard");
    expect(paths.dashboard("refunds")).toBe("/dashboard/refunds");
    expect(paths.admin.editPage("x")).toBe("/admin/pages/x");
    expect(paths.seller.editProduct("x")).toBe("/seller/products/x/edit");
  });

  const builders = [
    ...Object.entries(paths).filter(
      (entry): entry is [string, () => string] => typeof entry[1] === "function",
    ),
    ...Object.entries(paths.admin).map(([name, build]) => [`admin.${name}`, build] as const),
    ...Object.entries(paths.seller).map(([name, build]) => [`seller.${name}`, build] as const),
  ];
  // `dashboard`, `products` and `compare` take optional arguments of their own; they are checked below.
  test.each(
    builders.filter(([name]) => !["dashboard", "products", "checkoutComplete", "compare"].includes(name)),
  )("paths.%s is a page the server knows", (_name, build) => {
    expect(isKnownPagePath((build as (id: string) => string)("abc"))).toBe(true);
  });

  test("paths.compare carries the ids in one readable, shareable query parameter", () => {
    expect(paths.compare()).toBe("/compare");
    expect(paths.compare(["a", "b c"])).toBe("/compare?ids=a,b%20c");
    const url = new URL(paths.compare(["a", "b"]), "http://x");
    expect(isKnownPagePath(url.pathname)).toBe(true);
    expect(url.searchParams.get("ids")).toBe("a,b");
  });

  test("paths.checkoutComplete is the return page with the order in its query", () => {
    const url = new URL(paths.checkoutComplete("a b"), "http://x");
    expect(isKnownPagePath(url.pathname)).toBe(true);
    expect(url.searchParams.get("order")).toBe("a b");
  });

  test.each([undefined, ...dashboardViews])("paths.dashboard(%s) is a page the server knows", (view) => {
    expect(isKnownPagePath(paths.dashboard(view))).toBe(true);
  });

  test("paths.products is the product list with or without filters", () => {
    expect(isKnownPagePath(paths.products())).toBe(true);
    expect(paths.products({ search: "x" }).startsWith(`${paths.products()}?`)).toBe(true);
  });

  test("sitemap and robots paths come from the table", () => {
    for (const path of sitemapStaticPaths) expect(isKnownPagePath(path)).toBe(true);
    expect(crawlerDisallowedPaths).toContain(paths.dashboard());
  });

  test("absoluteUrl joins an origin with or without a trailing slash", () => {
    expect(absoluteUrl("https://shop.test", paths.login())).toBe("https://shop.test/login");
    expect(absoluteUrl("https://shop.test/", paths.login())).toBe("https://shop.test/login");
  });
});

describe("dashboard view titles", () => {
  test.each(["orders", ...dashboardViews] as const)("%s has a title of its own", (view) => {
    expect(dashboardViewTitles[view].trim()).not.toBe("");
  });

  test("no two views share a title", () => {
    const titles = Object.values(dashboardViewTitles);
    expect(new Set(titles).size).toBe(titles.length);
    expect(Object.keys(dashboardViewTitles).sort()).toEqual(["orders", ...dashboardViews].sort());
  });
});

test("every hosted page of the test provider lives under HOSTED_TEST_PAGES", () => {
  for (const pattern of [routePatterns.testPayment, routePatterns.testConnect, routePatterns.testSetup])
    expect(pattern.startsWith(HOSTED_TEST_PAGES)).toBe(true);
});
