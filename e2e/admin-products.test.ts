import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail } from "#domain/catalog-schemas";
import { formatPrice } from "#domain/money";
import { expectAccessible, setupBrowser, snapshot, toast } from "./browser";

const browser = setupBrowser();

let folder: string;
let pictures: string[];
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-images-"));
  pictures = await Promise.all(
    [
      { name: "teal.png", colour: { r: 20, g: 160, b: 150 } },
      { name: "amber.png", colour: { r: 240, g: 170, b: 30 } },
    ].map(async ({ name, colour }) => {
      const file = path.join(folder, name);
      await sharp({ create: { width: 320, height: 240, channels: 3, background: colour } })
        .png()
        .toFile(file);
      return file;
    }),
  );
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const name = `Orbit Console ${Date.now().toString(36)}`;

const row = (page: Page) => page.getByTestId("managed-product-row").filter({ hasText: name });

/** The admin product list from a marketplace screen, as an admin goes there: Admin Panel, then Products. */
async function toAdminList(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin Panel" }).click();
  await page
    .getByRole("navigation", { name: "Admin" })
    .getByRole("link", { name: "Products", exact: true })
    .click();
  await page.getByRole("heading", { level: 1, name: "Products" }).waitFor();
}

/** The admin list narrowed to the product of this journey. */
async function openInList(page: Page) {
  await toAdminList(page);
  await page.getByLabel("Search products", { exact: true }).fill(name);
  await page.waitForURL((url) => url.searchParams.get("search") === name);
  await row(page).waitFor();
}

async function publicSearchCount(page: Page) {
  await page.goto(`/products?search=${encodeURIComponent(name)}`);
  await expect.poll(() => page.getByTestId("product-count").textContent()).toMatch(/^Showing/);
  return page.getByTestId("product-card").filter({ hasText: name }).count();
}

describe("admin product management", () => {
  test("add with pictures, features and a specification; edit the price; delete and restore", async () => {
    const page = await browser.newPage({ as: "admin", allowErrors: [/status of 404/] });
    await page.goto("/admin/add-product");
    await page.getByRole("heading", { level: 1, name: "Add Product" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Vendor", { exact: true }).fill("Orbit Labs");
    await page
      .getByLabel("Description", { exact: true })
      .fill("A mission control console for small satellite fleets.");
    await page.getByLabel("Category", { exact: true }).selectOption("software");
    await page.getByLabel("Price (USD)", { exact: true }).fill("149.5");
    await page.getByLabel("Original price (USD)", { exact: true }).fill("199");
    await page.getByLabel("Pricing unit", { exact: true }).selectOption("Per month");
    // Ratings come only from reviews: the form has no rating field.
    expect(await page.getByLabel("Rating", { exact: true }).count()).toBe(0);
    await page.getByLabel("Discount label", { exact: true }).fill("25% OFF");

    await page.getByRole("button", { name: "Add feature" }).click();
    // The new row takes focus, so a keyboard user types straight into it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Feature 1");
    await page.keyboard.type("Live telemetry");
    await page.getByRole("button", { name: "Add feature" }).click();
    await page.getByLabel("Feature 2", { exact: true }).fill("Pass scheduling");
    await page.getByRole("button", { name: "Add feature" }).click();
    await page.getByRole("button", { name: "Remove feature 3" }).click();
    await page.getByRole("button", { name: "Add specification" }).click();
    await page.getByLabel("Specification 1 name", { exact: true }).fill("Platform");
    await page.getByLabel("Specification 1 value", { exact: true }).fill("Linux, Web");

    // A file that is not a picture is refused before any upload.
    await page.getByLabel("Images", { exact: true }).setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not an image"),
    });
    await page.getByText("Please select an image file").waitFor();
    await page.getByLabel("Images", { exact: true }).setInputFiles(pictures);
    const previews = page.getByTestId("image-previews").getByRole("img");
    await expect.poll(() => previews.count()).toBe(2);
    expect(await page.getByText("Please select an image file").count()).toBe(0);
    // The second picture becomes the main one.
    await page.getByRole("radio", { name: "Main image: image 2" }).check();
    await expectAccessible(page);
    await snapshot(page, "h1-admin-form", { fullPage: true });

    const uploads: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/uploads/images") uploads.push(r.url());
    });
    await page.getByRole("button", { name: "Create Product" }).click();
    await toast(page, "Success", "Product created successfully").waitFor();
    await page.waitForURL((url) => url.pathname === "/admin/products");
    expect(uploads).toHaveLength(2);

    // Newest first: the new product heads the list, with its thumbnail, category, prices and status.
    const first = page.getByTestId("managed-product-row").first();
    await expect.poll(() => first.textContent()).toContain(name);
    const cells = await first.locator("td").allTextContents();
    expect(cells.slice(1, 5)).toEqual([
      "Software Licenses",
      "$149.50 / monthwas $199.00",
      "Orbit Labs",
      "Active",
    ]);
    expect(await first.locator("s").textContent()).toBe("was $199.00");
    expect(await first.locator("img").getAttribute("src")).toMatch(/^\/uploads\/products\/.+\.webp$/);

    // On the marketplace: found by search, and its page shows everything that was entered.
    expect(await publicSearchCount(page)).toBe(1);
    await page.getByTestId("product-card").filter({ hasText: name }).getByRole("link").first().click();
    await page.getByRole("heading", { level: 1, name }).waitFor();
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    const detail = (await (await page.request.get(`/api/products/${id}`)).json()) as ProductDetail;
    expect(detail.images).toHaveLength(2);
    expect(detail.images.every((url) => /^\/uploads\/products\/.+\.webp$/.test(url))).toBe(true);
    expect(detail).toMatchObject({
      imageUrl: detail.images[1],
      price: 149.5,
      originalPrice: 199,
      rating: null,
      reviewsCount: 0,
      vendor: "Orbit Labs",
      hasDiscount: true,
      discountLabel: "25% OFF",
      features: [{ feature: "Live telemetry" }, { feature: "Pass scheduling" }],
      specifications: [{ key: "Platform", value: "Linux, Web" }],
    });
    await page.getByText("Live telemetry").waitFor();
    expect(await page.getByText("Linux, Web").isVisible()).toBe(true);

    // Edit the price: the public page follows.
    await openInList(page);
    await row(page)
      .getByRole("link", { name: `Edit ${name}` })
      .click();
    await page.getByRole("heading", { level: 1, name: "Edit Product" }).waitFor();
    const price = page.getByLabel("Price (USD)", { exact: true });
    await expect.poll(() => price.inputValue()).toBe("149.5");
    // Sold per month, so it has plans, edited here as well: the first one is the listed price.
    const firstPlan = page.getByTestId("plan-item").first();
    await expect.poll(() => firstPlan.getByLabel("Plan price (USD)").inputValue()).toBe("149.5");
    expect(await page.getByLabel("Feature 2", { exact: true }).inputValue()).toBe("Pass scheduling");
    expect(await page.getByTestId("image-previews").getByRole("img").count()).toBe(2);
    await price.fill("99");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await toast(page, "Success", "Product updated successfully").waitFor();
    await page.waitForURL((url) => url.pathname === "/admin/products");
    expect(uploads).toHaveLength(2);
    // To the public page by the row's View link, as the admin would check it.
    await row(page)
      .getByRole("link", { name: `View ${name}` })
      .click();
    await page.waitForURL((url) => url.pathname === `/products/${id}`);
    await page.getByRole("heading", { level: 1, name }).waitFor();
    await expect
      .poll(() => page.getByTestId("price").first().textContent())
      .toBe(formatPrice(99, "USD", [], { unit: "month" }));

    // Delete (deactivate) after the confirmation: gone from the marketplace.
    await openInList(page);
    await row(page)
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Are you sure?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      "You can undo it later by editing the product or choosing Restore",
    );
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Success", "Product deleted successfully").waitFor();
    await expect.poll(() => row(page).getByTestId("managed-product-status").textContent()).toBe("Inactive");
    expect(
      await row(page)
        .getByRole("button", { name: `View ${name}` })
        .isDisabled(),
    ).toBe(true);
    expect(await publicSearchCount(page)).toBe(0);
    await page.goto(`/products/${id}`);
    await page.getByRole("heading", { name: "Product not found" }).waitFor();

    // The status filter finds it among the inactive ones; Restore brings it back.
    await toAdminList(page);
    await page.getByLabel("Status", { exact: true }).selectOption("inactive");
    await page.waitForURL((url) => url.searchParams.get("status") === "inactive");
    await page.getByLabel("Search products", { exact: true }).fill(name);
    await page.waitForURL((url) => url.searchParams.get("search") === name);
    await row(page)
      .getByRole("button", { name: `Restore ${name}` })
      .click();
    await toast(page, "Success", "Product restored successfully").waitFor();
    // Restored, it leaves the inactive filter.
    await expect.poll(() => row(page).count()).toBe(0);
    expect(await page.getByText("No products found.").isVisible()).toBe(true);
    expect(await publicSearchCount(page)).toBe(1);
  });

  test("the list on a desktop and a 375 px phone: accessible, no sideways scrolling of the page", async () => {
    for (const width of [1280, 375]) {
      const page = await browser.newPage({
        as: "admin",
        width,
        height: 900,
        theme: width === 375 ? "dark" : "light",
      });
      await page.goto("/admin/products");
      await page.getByRole("heading", { level: 1, name: "Products" }).waitFor();
      await page.getByTestId("managed-product-row").first().waitFor();
      expect(await page.getByTestId("managed-product-row").count()).toBe(25);
      expect(await page.getByText(/in all · page 1 of \d+/).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // axe: the sweep checks this screen as it opens at these two widths and themes (1366 px for 1280).
      await snapshot(page, `h1-admin-products-${width}`);
      if (width === 375) {
        await page.getByRole("link", { name: "Add Product", exact: true }).click();
        await page.getByRole("heading", { level: 1, name: "Add Product" }).waitFor();
        await page.getByLabel("Name", { exact: true }).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await snapshot(page, "h1-admin-form-375", { fullPage: true });
      }
    }
  });

  test("a failed upload saves nothing; the form keeps its values and shows field errors", async () => {
    const page = await browser.newPage({ as: "admin", allowErrors: [/status of 413/] });
    await page.goto("/admin/add-product");
    await page.getByRole("heading", { level: 1, name: "Add Product" }).waitFor();
    await page.getByRole("button", { name: "Create Product" }).click();
    await page.getByText("Product name is required").waitFor();
    expect(await page.getByText("Please select a category").count()).toBeGreaterThan(0);
    expect(await page.getByText("Price is required").isVisible()).toBe(true);

    const failing = `Never Saved ${Date.now().toString(36)}`;
    await page.getByLabel("Name", { exact: true }).fill(failing);
    await page.getByLabel("Category", { exact: true }).selectOption("hardware");
    await page.getByLabel("Price (USD)", { exact: true }).fill("10");
    await page.getByLabel("Images", { exact: true }).setInputFiles(pictures[0] ?? "");
    await page.route("**/api/uploads/images", (route) =>
      route.fulfill({
        status: 413,
        contentType: "application/json",
        body: JSON.stringify({ code: "IMAGE_TOO_LARGE", message: "Image size must be less than 5MB" }),
      }),
    );
    const creates: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && new URL(r.url()).pathname === "/api/manage/products")
        creates.push(r.url());
    });
    await page.getByRole("button", { name: "Create Product" }).click();
    await toast(page, "Failed to upload image", "Image size must be less than 5MB").waitFor();
    expect(creates).toEqual([]);
    expect(new URL(page.url()).pathname).toBe("/admin/add-product");
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe(failing);
    const list = await page.request.get(`/api/manage/products?search=${encodeURIComponent(failing)}`);
    expect(((await list.json()) as { total: number }).total).toBe(0);
  });
});
