import type { Cookie, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { ProductList } from "#domain/catalog-schemas";
import type { Order, OrderList } from "#domain/checkout";
import { formatDate } from "#domain/dates";
import { chargeCents, computeTotals, formatOwed, formatUsd } from "#domain/money";
import { paths } from "#domain/routes";
import type { Subscription } from "#domain/subscription-schemas";
import { baseUrl, expectAccessible, setupBrowser, showAt, snapshot, submitLogin, toast } from "./browser";
import { payOnTestPage } from "./payments";

const browser = setupBrowser();
/** The buyer here is in the UAE: 5% VAT, as before taxes followed the country. */
const UAE_VAT = "0.05";

// The admin buys here, so no other journey's buyer sees these orders. Sign-ins are rate-limited per
// address: the first journey logs in through the form, the others reuse its cookies.
const admin = { email: "admin@stackbay.test", password: "stackbay-demo" };
let session: Cookie[] | undefined;

let products: ProductList["items"];
beforeAll(async () => {
  // The products page lists the catalogue newest first, like the API's default order. The two newest
  // digital products: hardware another journey has just listed would ask for a shipping address too.
  const newest = ((await (await fetch(`${baseUrl()}/api/products?pageSize=8`)).json()) as ProductList).items;
  products = newest.filter((p) => p.category !== "hardware").slice(0, 2);
  expect(products.length).toBe(2);
});

const pathOf = (page: Page) => new URL(page.url()).pathname;
const placeOrder = (page: Page) => page.getByRole("button", { name: "Place Order" });

async function logIn(page: Page) {
  await submitLogin(page, admin.email, admin.password);
}

/** A page signed in as the admin (through the form only if no journey has yet). */
async function signedIn(options: Parameters<typeof browser.newPage>[0] = {}) {
  const page = await browser.newPage(options);
  if (session) {
    await page.context().addCookies(session);
  } else {
    await page.goto("/login");
    await logIn(page);
    await page.waitForURL((url) => url.pathname === "/");
    session = await page.context().cookies();
  }
  return page;
}

/**
 * Puts the two products in the stored cart, as the product cards would, before the page's first load
 * (no load of its own just to reach the storage). Only while nothing is stored: what the app writes
 * afterwards (a paid or cleared cart) stands on the next loads.
 */
async function seedCart(page: Page) {
  const cart = products.map((p) => ({
    id: p.id,
    name: p.name,
    price: p.price,
    quantity: 1,
    vendor: p.vendor ?? "Unknown Vendor",
    image_url: p.imageUrl ?? "",
  }));
  await page.addInitScript((value) => {
    if (localStorage.getItem("stackbay.cart") === null) localStorage.setItem("stackbay.cart", value);
  }, JSON.stringify(cart));
}

const expectedTotals = () => {
  const totals = computeTotals(
    products.map((p) => ({ price: String(p.price), quantity: 1 })),
    UAE_VAT,
  );
  return {
    subtotal: formatOwed(Number(totals.subtotal)),
    tax: formatOwed(Number(totals.tax)),
    total: formatOwed(Number(totals.total)),
    totalUsd: Number(totals.total),
  };
};

describe("checkout", () => {
  test("a visitor fills the cart, logs in on the way, pays with PayPal and finds the order on the dashboard", async () => {
    const page = await browser.newPage();
    await page.goto("/products");
    for (const product of products) {
      await page.getByRole("button", { name: `Add ${product.name} to cart` }).click();
      await toast(page, "Added to cart!", `${product.name} has been added to your cart.`).waitFor();
    }
    await expect.poll(() => page.getByTestId("cart-count").first().textContent()).toBe("2");

    await page.getByTestId("cart-link").first().click();
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    // Not signed in: the login page, then straight back to the checkout.
    await page.waitForURL("**/login");
    await page.getByText("Please log in to complete your order.").waitFor();
    expect(await page.getByText("Authentication required").isVisible()).toBe(true);
    await logIn(page);
    await page.waitForURL("**/checkout");
    session = await page.context().cookies();

    await page.getByRole("heading", { level: 1, name: "Checkout" }).waitFor();
    expect(await page.title()).toBe("Checkout | Stackbay");
    const summary = page.getByTestId("checkout-summary");
    // The tax follows the buyer's country: UAE VAT at 5%.
    await page.getByLabel("Country").selectOption("United Arab Emirates");
    const expected = expectedTotals();
    await expect.poll(() => page.getByTestId("checkout-total").textContent()).toBe(expected.total);
    expect(await page.getByTestId("checkout-subtotal").textContent()).toBe(expected.subtotal);
    expect(await page.getByTestId("checkout-tax").textContent()).toBe(expected.tax);
    expect(await summary.getByText("UAE VAT (5%)").isVisible()).toBe(true);
    for (const product of products) {
      const line = summary.getByTestId("checkout-line").filter({ hasText: product.name });
      expect(await line.getByText("Qty: 1").isVisible()).toBe(true);
    }
    expect(await summary.getByTestId("currency-note").count()).toBe(0);
    // The signed-in e-mail is filled in already.
    expect(await page.getByLabel("E-mail").inputValue()).toBe(admin.email);
    for (const method of ["Credit/Debit Card", "PayPal", "Apple Pay"]) {
      expect(await page.getByRole("radio", { name: method }).isChecked()).toBe(false);
    }
    await expectAccessible(page);

    await page.getByLabel("Full name").fill("Ada Admin");
    await page.getByLabel("Address").fill("12 Marina Walk");
    await page.getByLabel("City").fill("Dubai");
    await page.getByLabel("Country").selectOption("United Arab Emirates");
    await page.getByRole("radio", { name: "PayPal" }).check();

    const answer = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/orders" && r.request().method() === "POST",
    );
    await placeOrder(page).click();
    const response = await answer;
    expect(response.status()).toBe(201);
    const sent = response.request().postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({
      fullName: "Ada Admin",
      email: admin.email,
      paymentMethod: "paypal",
      currency: "USD",
      items: products.map((p) => ({ productId: p.id, quantity: 1 })),
    });
    // The test-mode provider's page (no keys are set): it says so, shows the amount, and Pay confirms.
    await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
    await page.getByTestId("test-payment").waitFor();
    expect(await page.getByTestId("test-mode-banner").textContent()).toBe("Test mode — no real payment");
    // The provider charges whole cents of the USD total.
    const cents = chargeCents(
      computeTotals(
        products.map((p) => ({ price: String(p.price), quantity: 1 })),
        UAE_VAT,
      ).total,
    );
    expect(await page.getByTestId("test-payment-amount").textContent()).toBe(formatUsd(cents / 100));
    expect(await page.getByTestId("test-payment-description").textContent()).toMatch(
      /^Stackbay order [0-9A-F]{8}$/,
    );
    // The cart is kept until the payment is confirmed (the hosted page has no header showing it).
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("stackbay.cart") ?? "[]").length)).toBe(
      2,
    );
    // The test payment page as it opens is checked for accessibility by the width sweep.
    await snapshot(page, "h15-test-payment");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    const orderId = new URL(page.url()).searchParams.get("order") ?? "";
    await page.getByTestId("payment-confirmed").waitFor();
    expect(await page.getByTestId("test-payment-description").count()).toBe(0);
    expect(await page.getByText(`Order ${orderId.slice(0, 8)}`).isVisible()).toBe(true);
    expect(await page.getByTestId("confirmed-total").textContent()).toBe(expected.total);
    await expect.poll(() => page.getByTestId("cart-count").count()).toBe(0);
    await expectAccessible(page);
    await snapshot(page, "h15-payment-confirmed", { fullPage: true });
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const order = await page.evaluate(
      async (id) => ((await (await fetch(`/api/orders/${id}`)).json()) as { order: Order }).order,
      orderId,
    );

    const row = page.getByTestId("order-row").filter({ hasText: order.id.slice(0, 8) });
    await row.waitFor();
    expect(order.totalAmount).toBeCloseTo(expected.totalUsd, 4);
    expect(await row.getByTestId("order-total").textContent()).toBe(expected.total);
    expect(await row.getByTestId("order-status").textContent()).toBe("Confirmed");
    expect(await row.getByText("PayPal").isVisible()).toBe(true);
    expect(await row.getByText(formatDate(order.createdAt)).isVisible()).toBe(true);
    // The row names what was bought, not only how many (issue 30, low).
    const bought = await row.getByTestId("order-products").locator("li").allTextContents();
    expect(bought.sort()).toEqual(products.map((p) => p.name).sort());
    // Newest first.
    expect(await page.getByTestId("order-row").first().textContent()).toContain(order.id.slice(0, 8));

    // The figures match the server's, the cart is empty.
    const { stats } = await page.evaluate(
      async () => (await (await fetch("/api/orders")).json()) as OrderList,
    );
    const figures = page.getByRole("region", { name: "Order summary" });
    const figure = (label: string) =>
      figures.getByText(label).locator("xpath=following-sibling::dd").textContent();
    expect(stats.totalOrders).toBeGreaterThanOrEqual(1);
    await expect.poll(() => figure("Total Orders")).toBe(String(stats.totalOrders));
    expect(await figure("Total Spent")).toBe(formatOwed(stats.totalSpent));
    expect(await figure("Completed Orders")).toBe(String(stats.completedOrders));
    expect(await page.getByTestId("cart-count").count()).toBe(0);
    expect(await page.getByTestId("cart-link").first().getAttribute("aria-label")).toBe("Cart, 0 items");
    await expectAccessible(page);
  });

  test("a declined payment keeps the cart and says why; Try again pays the same order (phone, dark)", async () => {
    const page = await signedIn({ width: 375, height: 740, theme: "dark" });
    await seedCart(page);
    await page.goto("/checkout");
    await page.getByLabel("Full name").fill("Ada Admin");
    await page.getByLabel("Address").fill("12 Marina Walk");
    await page.getByLabel("City").fill("Dubai");
    await page.getByLabel("Country").selectOption("United Arab Emirates");
    await page.getByRole("radio", { name: "Credit/Debit Card" }).check();
    await placeOrder(page).click();
    await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
    await page.getByTestId("test-payment").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(page, "h15-test-payment-375-dark");
    await page.getByRole("button", { name: "Decline" }).click();

    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    const orderId = new URL(page.url()).searchParams.get("order") ?? "";
    await page.getByTestId("payment-failed").waitFor();
    await expect
      .poll(() => page.getByTestId("payment-reason").textContent())
      .toBe("Your card was declined. Reason given: Decline was chosen on the test payment page (test mode).");
    expect(await page.getByTestId("cart-count").first().textContent()).toBe("2");
    expect(await page.getByRole("link", { name: "Back to cart" }).getAttribute("href")).toBe("/cart");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await snapshot(page, "h15-payment-failed-375-dark", { fullPage: true });

    // Keyboard only: Try again opens a new payment for the same order.
    await page.getByRole("button", { name: "Try again" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname.startsWith("/pay/test/"));
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/checkout/complete");
    expect(new URL(page.url()).searchParams.get("order")).toBe(orderId);
    await page.getByTestId("payment-confirmed").waitFor();
    await expect.poll(() => page.getByTestId("cart-count").count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(page, "h15-payment-confirmed-375-dark", { fullPage: true });
  });

  test("an empty cart has nothing to check out", async () => {
    const page = await signedIn();
    await page.goto("/checkout");
    await page.getByRole("heading", { name: "Your cart is empty" }).waitFor();
    const browse = page.getByRole("main").getByRole("link", { name: "Browse Products" });
    expect(await browse.getAttribute("href")).toBe("/products");
    expect(await placeOrder(page).count()).toBe(0);
    // The empty checkout as it opens is checked for accessibility by the width sweep (layout-sweep.test.ts).
  });

  test("an empty submit shows the spec's messages beside the fields and sends nothing (phone width)", async () => {
    const page = await signedIn({ width: 375, height: 740 });
    await seedCart(page);
    await page.goto("/checkout");
    await placeOrder(page).waitFor();
    let posted = 0;
    page.on("request", (r) => {
      if (new URL(r.url()).pathname === "/api/orders" && r.method() === "POST") posted++;
    });
    for (const label of ["Full name", "Address", "City"]) {
      await page.getByLabel(label).fill("");
    }
    await page.getByLabel("Country").selectOption("");
    await page.getByLabel("E-mail").fill("ada@");
    await placeOrder(page).click();
    const messages: [string, string][] = [
      ["Full name", "Full name must be at least 2 characters"],
      ["E-mail", "Please enter a valid email address"],
      ["Address", "Please enter a valid address"],
      ["City", "Please enter a valid city"],
      ["Country", "Please select a country"],
    ];
    for (const [label, message] of messages) {
      await page.getByText(message).waitFor();
      expect(await page.getByLabel(label).getAttribute("aria-invalid"), label).toBe("true");
    }
    await page.getByText("Please select a payment method").waitFor();
    expect(await page.getByRole("radio", { name: "Apple Pay" }).getAttribute("aria-invalid")).toBe("true");
    expect(posted).toBe(0);
    expect(pathOf(page)).toBe("/checkout");
    // Nothing sticks out sideways at 375 px.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);

    // The order table scrolls inside its card on a phone; the page itself does not. Reached as a person
    // on a phone does, through the menu.
    await page.getByTestId("mobile-menu-toggle").click();
    await page.getByTestId("mobile-menu").getByRole("link", { name: "Dashboard" }).click();
    await page.getByRole("heading", { name: "Order History" }).waitFor();
    await page.getByTestId("order-row").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page);
  });

  test("a refused order keeps the cart, names what is unavailable, and a retry reuses the checkout key", async () => {
    const page = await signedIn({ allowErrors: [/status of 409/] });
    await seedCart(page);
    // The account's saved currency wins over local storage; the admin's own stays as other files expect.
    await page.route("**/api/me", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { user: { preferences: { currency: string } } | null };
      if (body.user) body.user.preferences.currency = "EUR";
      await route.fulfill({ response, json: body });
    });
    const keys: string[] = [];
    const message = `${products[0]!.name} is no longer available.`;
    await page.route("**/api/orders", async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      keys.push((route.request().postDataJSON() as { idempotencyKey: string }).idempotencyKey);
      // Slow enough to see the button's busy state.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.fulfill({
        status: 409,
        json: { code: "PRODUCT_UNAVAILABLE", message, details: { productIds: [products[0]!.id] } },
      });
    });
    await page.goto("/checkout");
    // In another currency the summary says the charge itself is made in USD.
    const note = page.getByTestId("currency-note");
    await note.waitFor();
    expect(await note.textContent()).toContain("are approximate. Final charges are processed in USD");

    await page.getByLabel("Full name").fill("Ada Admin");
    await page.getByLabel("Address").fill("12 Marina Walk");
    await page.getByLabel("City").fill("Dubai");
    await page.getByLabel("Country").selectOption("United Arab Emirates");
    await page.getByRole("radio", { name: "Credit/Debit Card" }).check();
    await placeOrder(page).click();
    const busy = page.getByRole("button", { name: "Processing..." });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await toast(page, "Order failed", message).waitFor();
    const line = page.getByTestId("checkout-line").filter({ hasText: products[0]!.name });
    await line.getByText("No longer available").waitFor();
    expect(pathOf(page)).toBe("/checkout");
    expect(await page.getByTestId("cart-count").first().textContent()).toBe("2");
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);

    await placeOrder(page).click();
    await expect.poll(() => keys.length).toBe(2);
    expect(keys[1]).toBe(keys[0]);
    await expect.poll(() => placeOrder(page).isEnabled()).toBe(true);
  });

  test("a monthly plan and an access point in one checkout: one payment; the plan renews from the desk, both lines are on the order (phone, then desktop, dark)", async () => {
    const find = async (name: string) => {
      const url = `${baseUrl()}/api/products?search=${encodeURIComponent(name)}&pageSize=5`;
      const found = ((await (await fetch(url)).json()) as ProductList).items.find((p) => p.name === name);
      if (!found) throw new Error(`${name} is not in the catalogue`);
      return found;
    };
    const plan = await find("Orbitide Uptime Board");
    const hardware = await find("Ferrowave AP7 Wi-Fi 7 Access Point");
    const page = await browser.newPage({ as: "admin", width: 375, height: 800, theme: "dark" });
    for (const product of [plan, hardware]) {
      await page.goto(paths.product(product.id));
      await page.getByRole("heading", { level: 1, name: product.name }).waitFor();
      await page.getByRole("button", { name: "Add to cart", exact: true }).click();
      await toast(page, "Added to cart!", `${product.name} has been added to your cart.`).waitFor();
    }
    await page.goto("/cart");
    await page.getByRole("link", { name: "Proceed to Checkout" }).click();
    const shipping = page.getByTestId("shipping-address");
    await shipping.waitFor();
    await page.getByLabel("Full name").fill("Ada Admin");
    await page.getByLabel("Address", { exact: true }).fill("12 Marina Walk");
    await page.getByLabel("City").first().fill("Dubai");
    await page.getByLabel("Country").first().selectOption("AE");
    await shipping.getByLabel("Recipient name").fill("Ada Admin");
    await shipping.getByLabel("Street address").fill("12 Marina Walk");
    await shipping.getByLabel("City").fill("Dubai");
    await shipping.getByLabel("Postal code").fill("00000");
    await shipping.getByLabel("Country").selectOption("AE");
    await shipping.getByLabel("Phone").fill("+971 4 555 0100");
    await page.getByRole("radio", { name: "Credit/Debit Card" }).check();
    // One order, one total: the plan's first month and the access point, taxed at the UAE's 5%.
    const expected = formatOwed(
      Number(
        computeTotals(
          [
            { price: String(plan.price), quantity: 1 },
            { price: String(hardware.price), quantity: 1 },
          ],
          UAE_VAT,
        ).total,
      ),
    );
    await expect.poll(() => page.getByTestId("checkout-total").textContent()).toBe(expected);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await snapshot(page, "h32-mixed-checkout-375-dark", { fullPage: true });
    await page.getByRole("button", { name: "Place Order" }).click();
    const orderId = await payOnTestPage(page);
    expect(await page.getByTestId("confirmed-total").textContent()).toBe(expected);

    // The renewal desk holds the plan, active and renewing in a month; the access point renews nothing.
    await showAt(page, { width: 1280, theme: "dark" }, 900);
    await page.goto("/dashboard/subscriptions");
    const card = page.getByTestId("subscription-row").filter({ hasText: plan.name }).first();
    await card.waitFor();
    const held = await page.evaluate(
      async () => ((await (await fetch("/api/subscriptions")).json()) as { items: Subscription[] }).items,
    );
    const started = held.filter((s) => s.orderId === orderId);
    expect(started.map((s) => [s.productName, s.status, s.interval])).toEqual([
      [plan.name, "active", "month"],
    ]);
    expect(await card.textContent()).toContain("Active");
    await snapshot(page, "h32-mixed-checkout-desk-1280-dark", { fullPage: true });
    const order = await page.evaluate(
      async (id) => ((await (await fetch(`/api/orders/${id}`)).json()) as { order: Order }).order,
      orderId,
    );
    expect(order.items.map((item) => item.productName).sort()).toEqual([plan.name, hardware.name].sort());
  });
});
