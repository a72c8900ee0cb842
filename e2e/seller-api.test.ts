import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import { paths } from "#domain/routes";
import { SELLER_API_KEY_PATTERN, type SellerApiCallPage, sellerApiKeyPrefix } from "#domain/seller-api";
import { dialogReady, expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

/** A call of the seller API as the seller's own system makes it: the key as a bearer token. */
const callWith = (page: Page, path: string, secret: string) =>
  page.request.get(`/api/seller/v1/${path}`, { headers: { authorization: `Bearer ${secret}` } });

/** The whole secret the open dialog shows, once. */
async function secretShown(page: Page) {
  const dialog = page.getByRole("alertdialog");
  const field = dialog.getByRole("textbox", { name: "Secret key" });
  await field.waitFor();
  const secret = await field.inputValue();
  expect(secret).toMatch(SELLER_API_KEY_PATTERN);
  expect(await dialog.textContent()).toContain("it will not be shown again");
  return secret;
}

describe("the seller's API keys", () => {
  for (const viewport of viewports()) {
    test(`at ${viewport.width} px ${viewport.theme}: a key made with only "Read orders" reads orders (200) but not subscriptions (403), both calls are in the access log, a rolled secret replaces the old one at once, and a revoked key is refused`, async () => {
      const page = await browser.newPage({ as: "seller", width: viewport.width, theme: viewport.theme });
      const name = `Sync ${viewport.width} ${randomUUID().slice(0, 6)}`;
      await page.goto(paths.dashboard("api"));
      await page.getByRole("heading", { level: 2, name: "API keys" }).waitFor();
      expect(await page.title()).toBe("API keys · Dashboard | Stackbay");
      const nav = page.getByRole("navigation", {
        name: viewport.width < 768 ? "Dashboard views" : "Dashboard menu",
      });
      expect(await nav.getByRole("link", { name: "API keys" }).getAttribute("aria-current")).toBe("page");
      expect(await page.getByRole("link", { name: "How to use the seller API" }).getAttribute("href")).toBe(
        "/developers",
      );

      // The form checks what the API checks, beside each field, before anything is sent.
      await page.getByRole("button", { name: "Create key", exact: true }).click();
      const dialog = page.getByRole("alertdialog");
      await dialogReady(dialog);
      await dialog.getByRole("button", { name: "Create key" }).click();
      await dialog.getByText("Name is required").waitFor();
      await dialog.getByText("Choose at least one scope").waitFor();
      await snapshot(page, `seller-api-form-${viewport.width}-${viewport.theme}`);
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByRole("checkbox", { name: "Read orders" }).check();
      expect(await dialog.getByRole("checkbox", { name: "Read subscriptions" }).isChecked()).toBe(false);
      await dialog.getByRole("button", { name: "Create key" }).click();

      // The secret, once: selected in its field for copying, with the warning.
      const secret = await secretShown(page);
      const prefix = sellerApiKeyPrefix(secret) ?? "";
      await expectAccessible(page);
      await snapshot(page, `seller-api-secret-${viewport.width}-${viewport.theme}`);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      const row = page.getByTestId("api-key-row").filter({ hasText: name });
      await row.waitFor();
      const listed = (await row.textContent()) ?? "";
      expect(listed).toContain(prefix);
      expect(listed).toContain("Read orders");
      expect(listed).not.toContain("Read subscriptions");
      expect(listed).toContain("Never");
      expect(await row.getByTestId("api-key-status").textContent()).toBe("Active");
      // The list never holds the secret again.
      expect(await page.content()).not.toContain(secret);
      await expectAccessible(page);
      await snapshot(page, `seller-api-list-${viewport.width}-${viewport.theme}`, { fullPage: true });

      // The seller's own system: its scope reads orders, and nothing else.
      expect((await callWith(page, "orders", secret)).status()).toBe(200);
      const refused = await callWith(page, "subscriptions", secret);
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { code: string }).code).toBe("API_KEY_SCOPE");

      // Both calls are in the access log, with their operation and status; the key was used. The log is
      // written once a call is answered: the page is read again once both are in it.
      await expect
        .poll(async () => {
          const log = (await (await page.request.get("/api/seller-api/calls")).json()) as SellerApiCallPage;
          return log.items.filter((call) => call.keyPrefix === prefix).length;
        })
        .toBe(2);
      await page.reload();
      const calls = page.getByTestId("api-call-row").filter({ hasText: prefix });
      await calls.first().waitFor();
      expect(await calls.count()).toBe(2);
      const logged = await calls.evaluateAll((rows) =>
        rows.map((r) => [
          r.querySelector("td:nth-child(3)")?.textContent,
          r.querySelector('[data-testid="api-call-status"]')?.textContent,
        ]),
      );
      expect(logged.sort()).toEqual([
        ["GET /seller/v1/orders", "200 OK"],
        ["GET /seller/v1/subscriptions", "403 Forbidden"],
      ]);
      expect(await row.textContent()).not.toContain("Never");

      // Rolled: a new secret, shown once; the old one stops at once.
      await row.getByRole("button", { name: `Roll secret: ${name}` }).click();
      await dialogReady(dialog);
      expect(await dialog.textContent()).toContain("The old secret stops working at once");
      await dialog.getByRole("button", { name: "Roll secret" }).click();
      const rolled = await secretShown(page);
      expect(rolled).not.toBe(secret);
      expect(sellerApiKeyPrefix(rolled)).toBe(prefix);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });
      expect((await callWith(page, "orders", secret)).status()).toBe(401);
      expect((await callWith(page, "orders", rolled)).status()).toBe(200);

      // Revoked: marked so, without actions, and refused.
      await row.getByRole("button", { name: `Revoke: ${name}` }).click();
      await dialogReady(dialog);
      await dialog.getByRole("button", { name: "Revoke key" }).click();
      await toast(page, "API key revoked", name).waitFor();
      await expect.poll(() => row.getByTestId("api-key-status").textContent()).toMatch(/^Revoked on /);
      expect(await row.getByRole("button").count()).toBe(0);
      // The row that held the focus lost its buttons: the focus is on the keys' heading, not lost.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Your keys");
      expect((await callWith(page, "orders", rolled)).status()).toBe(401);
    });
  }

  test("a buyer opening the API keys view is told it is for sellers, has no menu entry for it, and asks for no key", async () => {
    const page = await browser.newPage({ as: "buyer" });
    const asked: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/seller-api/")) asked.push(request.url());
    });
    await page.goto(paths.dashboard("api"));
    await page.getByRole("heading", { level: 2, name: "API keys" }).waitFor();
    await page.getByText("API keys are for sellers.").waitFor();
    const menu = page.getByRole("navigation", { name: "Dashboard menu" });
    await menu.getByRole("link", { name: "Wallet" }).waitFor();
    expect(await menu.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Create key" }).count()).toBe(0);
    expect(asked).toEqual([]);
  });
});
