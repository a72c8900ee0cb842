import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { PlanList } from "#domain/plan-schemas";
import type { EditableProduct, ManagedProductList } from "#domain/product-admin";
import { demoApi, expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

let folder: string;
let picture: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-seller-"));
  picture = path.join(folder, "violet.png");
  await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 110, g: 60, b: 200 } } })
    .png()
    .toFile(picture);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const suffix = Date.now().toString(36);

describe("a seller's own products", () => {
  test("a seller adds a product with a picture; it is listed under My Products with their storefront's name", async () => {
    const name = `Samir Sensor Kit ${suffix}`;
    const page = await browser.newPage({ as: "seller" });
    await page.goto("/seller/products");
    await page.getByRole("heading", { level: 1, name: "My Products" }).waitFor();
    await page.getByTestId("managed-product-row").first().waitFor();
    // axe: the sweep checks this screen as it opens, at 1366 px light and 375 px dark.

    await page.getByRole("link", { name: "Add Product" }).click();
    await page.waitForURL((url) => url.pathname === "/seller/products/new");
    await page.getByRole("heading", { level: 1, name: "Add Product" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Category", { exact: true }).selectOption("hardware");
    await page.getByLabel("Price (USD)", { exact: true }).fill("64");
    await page.getByLabel("Resellable", { exact: true }).check();
    await page.getByLabel("Images", { exact: true }).setInputFiles(picture);
    await page.getByTestId("image-previews").getByRole("img").waitFor();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Create Product" }).click();
    await toast(page, "Success", "Product created successfully").waitFor();
    await page.waitForURL((url) => url.pathname === "/seller/products");

    const row = page.getByTestId("managed-product-row").filter({ hasText: name });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    // A seller's products are sold under their storefront's name.
    expect(cells.slice(1, 5)).toEqual(["Hardware", "$64.00", "Cinderpath Security", "Active"]);
    expect(await row.locator("img").getAttribute("src")).toMatch(/^\/uploads\/products\/.+\.webp$/);

    // Its edit screen is the seller's one, with the saved values.
    await row.getByRole("link", { name: `Edit ${name}` }).click();
    await page.waitForURL((url) => /^\/seller\/products\/[0-9a-f-]+\/edit$/.test(url.pathname));
    await page.getByRole("heading", { level: 1, name: "Edit Product" }).waitFor();
    // No vendor to type: the storefront's name, and where to change it.
    expect(await page.getByLabel("Vendor", { exact: true }).count()).toBe(0);
    expect(await page.getByTestId("storefront-vendor").textContent()).toContain("Cinderpath Security");
    expect(await page.getByLabel("Resellable", { exact: true }).isChecked()).toBe(true);
    await expectAccessible(page);
    await snapshot(page, "h1-seller-edit", { fullPage: true });
  });

  test("a product the seller does not own: not found on screen, 404 from the API, absent from the list", async () => {
    const name = `Stackbay House Product ${suffix}`;
    const admin = await browser.newPage({ as: "admin" });
    const created = await admin.request.post("/api/manage/products", {
      data: { name, category: "services", price: 300 },
    });
    expect(created.status()).toBe(201);
    const product = ((await created.json()) as { product: EditableProduct }).product;
    expect(product.sellerId).toBeNull();

    const page = await browser.newPage({ as: "seller", allowErrors: [/status of 404/] });
    await page.goto(`/seller/products/${product.id}/edit`);
    await page.getByRole("heading", { level: 1, name: "Product not found" }).waitFor();
    expect(await page.getByLabel("Name", { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await snapshot(page, "h1-seller-not-found");

    const patch = await page.request.patch(`/api/manage/products/${product.id}`, {
      data: { name: "Taken over", category: "services", price: 1 },
    });
    expect(patch.status()).toBe(404);
    expect((await page.request.delete(`/api/manage/products/${product.id}`)).status()).toBe(404);
    const unchanged = await admin.request.get(`/api/manage/products/${product.id}`);
    expect(((await unchanged.json()) as { product: EditableProduct }).product).toMatchObject({
      name,
      price: 300,
      isActive: true,
    });

    await page.getByRole("link", { name: "Back to My Products" }).click();
    await page.getByRole("heading", { level: 1, name: "My Products" }).waitFor();
    await page.getByLabel("Search products", { exact: true }).fill(name);
    await page.waitForURL((url) => url.searchParams.get("search") === name);
    await page.getByText("No products found.").waitFor();
  });

  test("a buyer at /seller/products is turned away", async () => {
    const page = await browser.newPage({ as: "buyer" });
    await page.goto("/seller/products");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    expect(await page.getByTestId("managed-products-table").count()).toBe(0);
  });
});

describe("a seller's plans", () => {
  let product: { id: string; name: string };
  let saved: PlanList["plans"];

  const plansNow = async () => {
    const res = await demoApi("seller", "GET", `/api/manage/products/${product.id}/plans`);
    expect(res.status).toBe(200);
    return ((await res.json()) as PlanList).plans;
  };

  beforeAll(async () => {
    // One of the demo seller's products sold per month, from their own list.
    const res = await demoApi("seller", "GET", "/api/manage/products?status=active");
    const list = (await res.json()) as ManagedProductList;
    const monthly = list.items.find((item) => item.pricingUnit === "month");
    if (!monthly) throw new Error("the demo seller sells nothing per month");
    product = monthly;
    saved = await plansNow();
  });
  // Other journeys of this worker buy the product: it goes back to the plans it had.
  afterEach(async () => {
    const plans = saved.map(({ subscribers: _s, price, ...plan }) => ({ ...plan, price: Number(price) }));
    const res = await demoApi("seller", "PUT", `/api/manage/products/${product.id}/plans`, { plans });
    expect(res.status).toBe(200);
  });

  test.each(viewports())(
    "adds a yearly plan with a free trial, refused first with fewer maximum than minimum seats; the product page offers both ($width px, $theme)",
    async ({ width, theme }) => {
      const page = await browser.newPage({ as: "seller", width, height: 900, theme });
      const shot = `seller-plans-${width}-${theme}`;
      await page.goto(`/seller/products/${product.id}/edit`);
      await page.getByRole("heading", { level: 2, name: "Plans" }).waitFor();
      const items = page.getByTestId("plan-item");
      await expect.poll(() => items.count()).toBe(saved.length);
      expect(await items.first().getByLabel("Plan name").inputValue()).toBe(saved[0]?.name);

      // A new plan, per seat with fewer maximum than minimum seats: marked at the field, nothing saved.
      await page.getByRole("button", { name: "Add plan" }).click();
      const plan = items.nth(saved.length);
      await expect
        .poll(() => plan.getByLabel("Plan name").evaluate((el) => el === document.activeElement))
        .toBe(true);
      await plan.getByLabel("Plan name").fill("Yearly");
      await plan.getByLabel("Billed", { exact: true }).selectOption("Yearly");
      await plan.getByLabel("Plan price (USD)").fill("24000");
      await plan.getByLabel("Charged").selectOption("Per seat");
      await plan.getByLabel("Minimum seats").fill("10");
      await plan.getByLabel("Maximum seats").fill("5");
      await page.getByRole("button", { name: "Save plans" }).click();
      const max = plan.getByLabel("Maximum seats");
      await expect.poll(() => max.getAttribute("aria-invalid")).toBe("true");
      await plan.getByText("Maximum seats must be at least the minimum").waitFor();
      expect(await max.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await plansNow()).toEqual(saved);
      // The server gives the same answer at the same field.
      const refused = await page.request.put(`/api/manage/products/${product.id}/plans`, {
        data: {
          plans: [{ name: "Seats", interval: "month", price: 10, perSeat: true, minSeats: 10, maxSeats: 5 }],
        },
      });
      expect(refused.status()).toBe(400);
      expect(((await refused.json()) as { details: { path: string }[] }).details[0]?.path).toBe(
        "plans.0.maxSeats",
      );
      await expectAccessible(page);
      await snapshot(page, `${shot}-error`);

      // Flat, with a 14-day trial: saved, and the product keeps its listed price (the first plan's).
      await plan.getByLabel("Charged").selectOption("Flat price");
      expect(await plan.getByLabel("Maximum seats").count()).toBe(0);
      await plan.getByLabel("Free trial (days)").fill("14");
      expect(await plan.textContent()).toContain("Buyers see $24,000.00 / year.");
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // The picture starts at the section's heading, below the sticky header.
      await page.getByRole("heading", { level: 2, name: "Plans" }).evaluate((heading) => {
        heading.scrollIntoView({ block: "start" });
        window.scrollBy(0, -80);
      });
      await snapshot(page, `${shot}-editor`);
      await page.getByRole("button", { name: "Save plans" }).click();
      await toast(page, "Plans saved").waitFor();
      await expect.poll(() => plan.getByText("New", { exact: true }).count()).toBe(0);
      const after = await plansNow();
      expect(after).toHaveLength(saved.length + 1);
      expect(after.at(-1)).toMatchObject({
        name: "Yearly",
        interval: "year",
        price: "24000.00",
        perSeat: false,
        minSeats: 1,
        maxSeats: 99,
        trialDays: 14,
        subscribers: 0,
      });
      expect(after[0]).toEqual(saved[0]);
      await expectAccessible(page);

      // The marketplace's page offers both plans, and the yearly one's trial.
      await page.goto(`/products/${product.id}`);
      await page.getByRole("heading", { level: 1, name: product.name }).waitFor();
      const options = page.getByTestId("plan-option");
      await expect.poll(() => options.count()).toBe(saved.length + 1);
      expect(await options.first().textContent()).toContain(saved[0]?.name);
      const yearly = options.filter({ hasText: "Yearly" });
      expect(await yearly.textContent()).toContain("14-day free trial");
      await snapshot(page, `${shot}-product`);
    },
  );
});
