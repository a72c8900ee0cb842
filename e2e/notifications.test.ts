import type { Page } from "playwright-core";
import { describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import type { UnreadCount } from "#domain/notifications";
import type { ManagedProductList } from "#domain/product-admin";
import { dialogReady, setupBrowser, snapshot, viewports } from "./browser";
import { placeAndPay } from "./orders";

const browser = setupBrowser();

/** The bell's link, by its accessible name, which carries the unread count. */
const bell = (page: Page) => page.getByRole("link", { name: /^Notifications, (\d+ unread|none unread)$/ });
async function unreadOf(page: Page): Promise<number> {
  const name = (await bell(page).getAttribute("aria-label")) ?? "";
  return Number(name.match(/(\d+) unread/)?.[1] ?? 0);
}

describe("notifications", () => {
  test("a seller sees the bell's count after a buyer pays, opens the list and goes to ship; buyer and seller write on the refund request", async () => {
    const [first, ...others] = viewports();
    if (!first) throw new Error("no viewport");
    const seller = await browser.newPage({ as: "seller", width: first.width, theme: first.theme });
    const buyer = await browser.newPage({ as: "buyer" });

    // A buyer pays for hardware the demo seller sells.
    const listed = (await (
      await seller.request.get("/api/manage/products?status=active")
    ).json()) as ManagedProductList;
    const product = listed.items.find((p) => p.category === "hardware" && p.moderationStatus === "approved");
    if (!product) throw new Error("the demo seller has no hardware on sale");
    await seller.goto("/");
    // The server's count, then the bell showing it: read before the bell's count has come, it says none.
    const before = (
      (await (await seller.request.get("/api/notifications/unread-count")).json()) as UnreadCount
    ).unread;
    await expect.poll(() => unreadOf(seller)).toBe(before);
    const order: Order = await placeAndPay(buyer.request, {
      country: "Portugal",
      items: [{ productId: product.id, price: product.price }],
    });
    // The seller's bell counts it (on the next look: a new page), and its list says what to do.
    await seller.reload();
    await expect.poll(() => unreadOf(seller)).toBe(before + 1);
    await bell(seller).click();
    await seller.waitForURL("**/dashboard/notifications");
    await seller.getByRole("heading", { level: 2, name: "Notifications" }).waitFor();
    const sale = seller.getByTestId("notification").filter({ hasText: `New order to ship: ${product.name}` });
    await sale.first().waitFor();
    await snapshot(seller, `notifications-${first.width}-${first.theme}`);
    await sale.first().getByRole("link", { name: "Ship the order" }).click();
    await seller.waitForURL("**/dashboard/shipping");
    await expect.poll(() => unreadOf(seller)).toBe(before);

    // The list at the other widths and themes, read now.
    for (const viewport of others) {
      const page = await browser.newPage({ as: "seller", width: viewport.width, theme: viewport.theme });
      await page.goto("/dashboard/notifications");
      await page
        .getByTestId("notification")
        .filter({ hasText: `New order to ship: ${product.name}` })
        .first()
        .waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await snapshot(page, `notifications-${viewport.width}-${viewport.theme}`);
    }

    // The buyer asks for a refund and writes to the seller on it.
    const item = order.items.find((i) => i.productId === product.id);
    const asked = await buyer.request.post(`/api/orders/${order.id}/items/${item?.id}/refund`, {
      data: { reason: "The board arrived with a cracked connector." },
    });
    expect(asked.status()).toBe(201);
    const subject = `${product.name} (order ${order.id.slice(0, 8)})`;
    const converse = async (page: Page, write: string, expectToSee: string[]) => {
      await page.goto("/dashboard/refunds");
      await page
        .getByRole("button", { name: `Messages about ${subject}` })
        .first()
        .click();
      const dialog = page.getByRole("alertdialog", { name: `Messages about ${subject}` });
      await dialogReady(dialog);
      await dialog.getByLabel("Your message").fill(write);
      await dialog.getByRole("button", { name: "Send message" }).click();
      for (const text of [...expectToSee, write])
        await dialog.getByTestId("refund-message").filter({ hasText: text }).waitFor();
      await snapshot(page, `refund-thread-${page.viewportSize()?.width}`);
      await dialog.getByRole("button", { name: "Close" }).click();
    };
    await converse(buyer, "Could you send a replacement connector instead?", []);
    await converse(seller, "Yes: a new connector ships tomorrow.", [
      "Could you send a replacement connector instead?",
    ]);
    await converse(buyer, "Thank you, I will wait for it.", ["Yes: a new connector ships tomorrow."]);
  });
});
