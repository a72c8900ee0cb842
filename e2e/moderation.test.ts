import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { ManagedProductList } from "#domain/product-admin";
import { expectAccessible, newAccount, setupBrowser, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

describe("listing moderation", () => {
  test("a new seller's listing waits in the queue, invisible, until an admin approves it", async () => {
    const seller = await browser.newPage();
    await newAccount(seller, { firstName: "Mira", lastName: "Maker", accountType: "seller" });
    const name = `Moderated Toolkit ${randomUUID().slice(0, 6)}`;
    await seller.goto("/seller/products/new");
    await seller.getByRole("heading", { level: 1, name: "Add Product" }).waitFor();
    await seller.getByLabel("Name", { exact: true }).fill(name);
    await seller.getByLabel("Category", { exact: true }).selectOption("software");
    await seller.getByLabel("Price (USD)", { exact: true }).fill("39");
    // Ratings come only from reviews: the seller's form has no rating field either.
    expect(await seller.getByLabel(/rating/i).count()).toBe(0);
    await seller.getByRole("button", { name: "Create Product" }).click();
    await toast(seller, "Success", "Product created successfully").waitFor();
    await seller.waitForURL((url) => url.pathname === "/seller/products");
    const row = seller.getByTestId("managed-product-row").filter({ hasText: name });
    await expect.poll(() => row.getByTestId("managed-product-review").textContent()).toBe("Pending review");

    const listed = (await (
      await seller.request.get("/api/manage/products", { params: { search: name } })
    ).json()) as ManagedProductList;
    const productId = listed.items[0]?.id ?? "";
    expect(productId).toMatch(/^[0-9a-f-]{36}$/);

    // Until approved, nobody else finds it: not its page, not the catalogue's search.
    const visitor = await browser.newPage({ allowErrors: [/status of 404/] });
    await visitor.goto(`/products/${productId}`);
    await visitor.getByRole("heading", { name: "Product not found" }).waitFor();
    const search = await visitor.request.get("/api/products", { params: { search: name } });
    expect(((await search.json()) as { items: unknown[] }).items).toEqual([]);

    // The queue at phone width in the dark and on a desktop.
    for (const { width, theme } of viewports()) {
      const view = await browser.newPage({ width, height: 900, theme, as: "admin" });
      await view.goto("/admin/moderation");
      await view.getByTestId("moderation-item").filter({ hasText: name }).waitFor();
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(view);
      await snapshot(view, `h17-moderation-queue-${width}-${theme}`);
    }

    // An admin approves it from the queue; it leaves the queue and goes public.
    const admin = await browser.newPage({ as: "admin" });
    await admin.goto("/admin/moderation");
    const item = admin.getByTestId("moderation-item").filter({ hasText: name });
    await item.getByRole("button", { name: `Approve: ${name}` }).click();
    await admin
      .getByRole("alertdialog", { name: "Approve this listing?" })
      .getByRole("button", { name: "Approve" })
      .click();
    await toast(admin, "Listing approved", name).waitFor();
    await expect.poll(() => item.count()).toBe(0);

    await visitor.goto(`/products/${productId}`);
    await visitor.getByRole("heading", { level: 1, name }).waitFor();
    const found = await visitor.request.get("/api/products", { params: { search: name } });
    expect(((await found.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([productId]);
    await seller.reload();
    await expect.poll(() => row.getByTestId("managed-product-review").textContent()).toBe("Approved");
    await snapshot(seller, "h17-moderation-seller-approved");
  });
});
