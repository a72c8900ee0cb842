import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EditableProduct } from "#domain/product-admin";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

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
