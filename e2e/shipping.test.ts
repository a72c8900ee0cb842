import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { waitForMail } from "#server/test/outbox";
import { dataDir, demoApi, expectAccessible, setupBrowser, showAt, snapshot, viewports } from "./browser";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();

describe("delivery of physical goods", () => {
  test("a buyer buys hardware with a shipping address, the seller ships it with tracking, the buyer confirms delivery", async () => {
    // The demo seller lists a router; an admin approves it (decision 0013).
    const seller = await browser.newPage({ as: "seller" });
    const name = `Ship Journey Router ${randomUUID().slice(0, 6)}`;
    const created = await seller.request.post("/api/manage/products", {
      data: { name, category: "hardware", price: 120, vendor: "Netgear" },
    });
    expect(created.status()).toBe(201);
    const productId = ((await created.json()) as { product: { id: string } }).product.id;
    // The approval is set-up through the API (the moderation journeys cover its screen): no page of its own.
    const approved = await demoApi("admin", "POST", `/api/admin/moderation/${productId}/approve`);
    expect(approved.status).toBe(200);

    // The buyer puts it in the cart from its page and checks out: hardware asks where to ship it.
    const buyer = await browser.newPage({ as: "buyer" });
    await buyer.goto(`/products/${productId}`);
    await buyer.getByRole("heading", { level: 1, name }).waitFor();
    await buyer.getByRole("button", { name: "Add to cart", exact: true }).click();
    await buyer.getByRole("button", { name: "View cart" }).click();
    await buyer.waitForURL((url) => url.pathname === "/cart");
    await buyer.getByRole("link", { name: "Proceed to Checkout" }).click();
    const shipping = buyer.getByTestId("shipping-address");
    await shipping.waitFor();
    await buyer.getByLabel("Full name").fill("Bianca Buyer");
    await buyer.getByLabel("Address", { exact: true }).fill("12 Harbour Street");
    await buyer.getByLabel("City").first().fill("Dubai");
    await buyer.getByLabel("Country").first().selectOption("AE");
    await buyer.getByRole("radio", { name: "Credit/Debit Card" }).check();

    // Left empty, the shipping address is refused field by field and nothing is placed.
    await buyer.getByRole("button", { name: "Place Order" }).click();
    await shipping.getByText("Please enter a valid street address").waitFor();
    expect(await shipping.getByText("Please select a country").isVisible()).toBe(true);
    expect(new URL(buyer.url()).pathname).toBe("/checkout");
    await snapshot(buyer, "h17-checkout-shipping-errors-1280-light", { fullPage: true });

    await shipping.getByLabel("Recipient name").fill("Bianca Buyer");
    await shipping.getByLabel("Street address").fill("12 Harbour Street");
    await shipping.getByLabel("City").fill("Dubai");
    await shipping.getByLabel("Postal code").fill("00000");
    await shipping.getByLabel("Country").selectOption("AE");
    await shipping.getByLabel("Phone").fill("+971 4 555 0100");
    await buyer.getByRole("button", { name: "Place Order" }).click();
    const orderId = await payOnTestPage(buyer);
    expect(orderId).toMatch(/^[0-9a-f-]{36}$/);

    // The seller finds it to ship, with the address, and marks it shipped with carrier and tracking.
    await seller.goto("/dashboard/shipping");
    const shipment = seller.getByTestId("shipment").filter({ hasText: name });
    await shipment.waitFor();
    expect(await shipment.getByTestId("shipment-address").textContent()).toContain("12 Harbour Street");
    await expectAccessible(seller);
    await shipment.getByLabel("Carrier").fill("Aramex");
    await shipment.getByLabel("Tracking number").fill("AX-4471-2290");
    await shipment.getByRole("button", { name: "Mark shipped" }).click();
    // It leaves the To ship list for the Shipped one, with its carrier and tracking number.
    await expect.poll(() => shipment.count()).toBe(0);
    await seller.getByRole("button", { name: "Shipped", exact: true }).click();
    await expect.poll(() => shipment.textContent()).toContain("AX-4471-2290");
    expect(await shipment.textContent()).toContain("Aramex");

    // The buyer is e-mailed the tracking number.
    const mail = await waitForMail(
      dataDir(),
      (m) => m.to === "buyer@stackbay.test" && m.body.includes("AX-4471-2290"),
    );
    expect(mail.body).toContain("Aramex");

    // The buyer sees it on its way in the order and confirms it arrived (from the payment's return page,
    // still open, to the dashboard as a person goes: its link).
    await buyer.getByRole("link", { name: "Go to your dashboard" }).click();
    await buyer.waitForURL((url) => url.pathname === "/dashboard");
    await buyer.getByRole("button", { name: `View order ${orderId.slice(0, 8)}` }).click();
    const delivery = buyer.getByTestId("order-delivery").filter({ hasText: name });
    await delivery.waitFor();
    expect(await delivery.getByTestId("delivery-state").textContent()).toBe("Shipped");
    expect(await delivery.textContent()).toContain("AX-4471-2290");
    await expectAccessible(buyer);
    await delivery.getByRole("button", { name: `Confirm delivery of ${name}` }).click();
    await expect.poll(() => delivery.getByTestId("delivery-state").textContent()).toBe("Delivered");

    // The seller's view and the buyer's order at phone width in the dark and on a desktop: each person's
    // page, resized and switched in place.
    await seller.getByRole("button", { name: "Delivered", exact: true }).click();
    for (const viewport of viewports()) {
      const { width, theme } = viewport;
      await showAt(buyer, viewport, 900);
      await delivery.waitFor();
      expect(await buyer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(buyer);
      await snapshot(buyer, `h17-order-delivery-${width}-${theme}`, { fullPage: true });
      await showAt(seller, viewport, 900);
      await seller.getByTestId("shipment").filter({ hasText: name }).waitFor();
      expect(await seller.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await snapshot(seller, `h17-to-ship-${width}-${theme}`, { fullPage: true });
    }
  });
});
