import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import { expectAccessible, setupBrowser, showAt, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

let folder: string;
let logo: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-storefront-"));
  logo = path.join(folder, "logo.png");
  await sharp({ create: { width: 240, height: 240, channels: 3, background: { r: 220, g: 90, b: 30 } } })
    .png()
    .toFile(logo);
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("vendor storefronts", () => {
  test("'by Vendor' opens the storefront; the seller edits it with a logo and the public page shows it", async () => {
    // The demo seller's storefront is Cinderpath Security; any of its products leads there.
    const visitor = await browser.newPage({ width: 375, theme: "dark" });
    const list = (await (
      await visitor.request.get("/api/products?pageSize=48&search=Cinderpath")
    ).json()) as ProductList;
    const product = list.items.find((p) => p.vendorSlug === "cinderpath-security");
    expect(product).toBeDefined();
    await visitor.goto(`/products/${product?.id}`);
    await visitor.getByRole("heading", { level: 1, name: product?.name }).waitFor();
    await visitor.locator("main").getByRole("link", { name: "Cinderpath Security" }).first().click();
    await visitor.waitForURL((url) => url.pathname === "/vendors/cinderpath-security");
    await visitor.getByRole("heading", { level: 1, name: "Cinderpath Security" }).waitFor();
    await visitor.getByTestId("product-card").first().waitFor();

    // The seller writes a description and uploads a logo, previewed before saving.
    const description = `Security hardware and response, reviewed ${Date.now().toString(36)}.`;
    const seller = await browser.newPage({ as: "seller" });
    await seller.goto("/dashboard/storefront");
    await seller.getByRole("heading", { name: "Storefront", exact: true }).waitFor();
    await seller.getByLabel("Description", { exact: true }).fill(description);
    await seller.locator('input[type="file"]').setInputFiles(logo);
    // The demo logo is replaced by the upload once the server has checked and stored it.
    await expect
      .poll(() => seller.getByTestId("logo-preview").getAttribute("src"))
      .toMatch(/^\/uploads\/products\/.+\.webp$/);
    await seller.getByLabel("Website", { exact: true }).fill("http://cinderpath.example");
    await seller.getByRole("button", { name: "Save storefront" }).click();
    await seller.getByText("Website must be a full https:// address").waitFor();
    await seller.getByLabel("Website", { exact: true }).fill("https://cinderpath.example");
    await seller.getByRole("button", { name: "Save storefront" }).click();
    await toast(
      seller,
      "Storefront saved",
      "Your new name and logo show once an admin approves them.",
    ).waitFor();
    // The seller is not trusted: the new logo waits for review, and the form says so.
    const status = seller.getByTestId("storefront-change-status");
    await status.getByText("Pending review").waitFor();
    await status.getByText(/waits for an admin's review/).waitFor();
    await expectAccessible(seller);
    await snapshot(seller, "storefront-dashboard-pending", { fullPage: true });
    // The same page on a phone in the dark (switched and resized in place, as a person would).
    await showAt(seller, { width: 375, theme: "dark" }, 800);
    await status.getByText("Pending review").waitFor();
    await expectAccessible(seller);
    await snapshot(seller, "storefront-dashboard-pending-375-dark", { fullPage: true });

    // Until an admin approves it, the public page keeps the approved logo; the details are there at once.
    // The visitor, still on the storefront, reloads it.
    await visitor.reload();
    await visitor.getByText(description).waitFor();
    expect(
      await visitor.getByRole("img", { name: "Cinderpath Security logo" }).getAttribute("src"),
    ).not.toMatch(/^\/uploads\/products\//);

    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/moderation");
    const change = admin.getByTestId("storefront-change").filter({ hasText: "Cinderpath Security" });
    await change.waitFor();
    await expectAccessible(admin);
    await snapshot(admin, "storefront-change-queue", { fullPage: true });
    await change.getByRole("button", { name: "Approve: Cinderpath Security" }).click();
    await admin.getByRole("alertdialog").getByRole("button", { name: "Approve" }).click();
    await toast(admin, "Storefront change approved").waitFor();
    await seller.reload();
    await seller.getByRole("heading", { name: "Storefront", exact: true }).waitFor();
    expect(await seller.getByTestId("storefront-change-status").count()).toBe(0);

    // Approved, the public page shows them, on a phone in the dark and a desktop in the light.
    // The visitor's page reloaded, then resized and switched in place.
    await visitor.reload();
    for (const viewport of viewports()) {
      const { width, theme } = viewport;
      await showAt(visitor, viewport, 800);
      await visitor.getByText(description).waitFor();
      const src = await visitor.getByRole("img", { name: "Cinderpath Security logo" }).getAttribute("src");
      expect(src).toMatch(/^\/uploads\/products\/.+\.webp$/);
      const website = visitor.getByRole("link", { name: /cinderpath\.example/ });
      expect(await website.getAttribute("rel")).toBe("nofollow noopener ugc");
      await expectAccessible(visitor);
      await snapshot(visitor, `storefront-${width}-${theme}`, { fullPage: true });
    }
  });
});
