import { describe, expect, test } from "vitest";
import { type DemoAccount, setupBrowser } from "./browser";

const browser = setupBrowser();

// Written out here rather than read from the route table, so a title the table lost or misspelt fails.
const views: { path: string; as: DemoAccount; title: string }[] = [
  { path: "/dashboard", as: "buyer", title: "Orders · Dashboard | Stackbay" },
  { path: "/dashboard/saved", as: "buyer", title: "Saved · Dashboard | Stackbay" },
  { path: "/dashboard/licenses", as: "buyer", title: "Licenses · Dashboard | Stackbay" },
  { path: "/dashboard/profile", as: "buyer", title: "Profile · Dashboard | Stackbay" },
  { path: "/dashboard/wallet", as: "buyer", title: "Wallet · Dashboard | Stackbay" },
  { path: "/dashboard/settings", as: "buyer", title: "Settings · Dashboard | Stackbay" },
  { path: "/dashboard/reseller", as: "reseller", title: "Reseller links · Dashboard | Stackbay" },
  { path: "/dashboard/refunds", as: "seller", title: "Refund requests · Dashboard | Stackbay" },
  { path: "/dashboard/earnings", as: "seller", title: "Earnings · Dashboard | Stackbay" },
];

describe("dashboard tab titles", () => {
  test.each(views)("$path signed in as $as is titled $title", async ({ path, as, title }) => {
    const page = await browser.newPage({ as });
    await page.goto(path);
    await page.getByRole("heading", { level: 1, name: "Dashboard" }).waitFor();
    await expect.poll(() => page.title()).toBe(title);
    expect(await page.title()).not.toContain("undefined");
  });
});
