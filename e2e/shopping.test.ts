import type { Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import { baseUrl, expectAccessible, setupBrowser } from "./browser";

const browser = setupBrowser();

const api = async <T>(path: string): Promise<T> =>
  (await fetch(`${baseUrl()}/api${path}`)).json() as Promise<T>;

let total = 0;
let detail: ProductDetail;
beforeAll(async () => {
  total = (await api<ProductList>("/products?pageSize=1")).total;
  // A product with several pictures, features and specifications for the detail journey.
  const list = await api<ProductList>("/products?pageSize=48&search=Nimbus%20CRM%20Pro");
  detail = await api<ProductDetail>(`/products/${list.items[0]!.id}`);
});

const countText = (page: Page) => page.getByTestId("product-count").textContent();
const search = (page: Page) => new URL(page.url()).searchParams;

describe("products page", () => {
  test("search, category, discounts and sort narrow the list, live in the URL, and Reset Filters clears them", async () => {
    const page = await browser.newPage();
    await page.goto("/products");
    await expect.poll(() => countText(page)).toBe(`Showing ${total} products`);
    expect(await page.getByTestId("product-card").count()).toBe(Math.min(total, 24));

    // A category picked just after the search went into the URL, while a slow phone (the CPU slowed
    // twentyfold) is still drawing it, narrows that search: it does not bring back the list before it.
    const cpu = await page.context().newCDPSession(page);
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await page.getByLabel("Search products", { exact: true }).fill("cloud");
    await expect.poll(() => search(page).get("search"), { interval: 1 }).toBe("cloud");
    await page.getByLabel("Category").selectOption("saas");
    await expect.poll(() => search(page).get("category")).toBe("saas");
    await cpu.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    expect(search(page).get("search")).toBe("cloud");
    // A search is ranked by relevance, and the sort says so.
    await expect.poll(() => page.getByLabel("Sort by").inputValue()).toBe("relevance");
    const saasCloud = (await api<ProductList>("/products?search=cloud&category=saas")).total;
    await expect.poll(() => countText(page)).toBe(`Showing ${saasCloud} products`);

    await page.getByRole("button", { name: "Discounts Only" }).click();
    await page.getByText("Showing discounted products only").waitFor();
    expect(await page.getByRole("button", { name: "All Products" }).getAttribute("aria-pressed")).toBe(
      "true",
    );

    await page.getByLabel("Sort by").selectOption("price-low");
    await expect.poll(() => search(page).get("sort")).toBe("price-low");

    // A filtered view survives a reload.
    await page.reload();
    expect(await page.getByLabel("Search products", { exact: true }).inputValue()).toBe("cloud");
    expect(await page.getByLabel("Category").inputValue()).toBe("saas");

    // Narrow to nothing, then reset: search, category and discount clear; sort stays.
    await page.getByLabel("Search products", { exact: true }).fill("zzzz-no-such-product");
    await page.getByText("No products found").waitFor();
    expect(
      await page.getByText("Try adjusting your search criteria or browse all categories").isVisible(),
    ).toBe(true);
    await page.getByRole("button", { name: "Reset Filters" }).click();
    await expect.poll(() => countText(page)).toBe(`Showing ${total} products`);
    expect(await page.getByLabel("Search products", { exact: true }).inputValue()).toBe("");
    expect(await page.getByLabel("Category").inputValue()).toBe("all");
    expect(await page.getByRole("button", { name: "Discounts Only" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Sort by").inputValue()).toBe("price-low");
    expect(search(page).toString()).toBe("sort=price-low");

    // Sorted by price: the first card is the cheapest product.
    const cheapest = (await api<ProductList>("/products?sort=price-low&pageSize=1")).items[0]!;
    expect(await page.getByTestId("product-card").first().getByRole("heading").textContent()).toBe(
      cheapest.name,
    );
  });

  test("an API failure shows the error state", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 500/] });
    // The first page comes drawn by the server with its products; the next list the browser asks for fails.
    await page.goto("/products");
    await page.route("**/api/products?*", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: '{"code":"INTERNAL_ERROR","message":"x"}',
      }),
    );
    await page.getByLabel("Category", { exact: true }).selectOption("hardware");
    await page.getByText("Error loading products").waitFor({ timeout: 20_000 });
    expect(await page.getByText("Please try refreshing the page").isVisible()).toBe(true);
    // Try again asks for the list once more; the server answers this time.
    await page.unroute("**/api/products?*");
    await page.getByRole("alert").getByRole("button", { name: "Try again" }).click();
    await page.getByTestId("product-card").first().waitFor();
  });

  test("home shows eight featured products and the way to all of them, whose numbered pages Next goes through", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    const featured = page.locator("section", {
      has: page.getByRole("heading", { name: "Featured Products" }),
    });
    await expect.poll(() => featured.getByTestId("product-card").count()).toBe(8);
    await featured.getByRole("link", { name: "View All Products" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/products");

    // Numbered pages: Next shows the following products.
    await expect.poll(() => page.getByTestId("product-card").count()).toBe(Math.min(total, 24));
    if (total <= 24) return;
    await page.getByRole("link", { name: "Next" }).click();
    await expect.poll(() => page.getByTestId("product-card").count()).toBe(Math.min(total - 24, 24));
  });
});

describe("product detail", () => {
  test("thumbnails switch the picture; INR shows lakh formatting and the USD tooltip; Add to cart keeps the buyer on the product, and the toast's View cart opens the cart", async () => {
    const page = await browser.newPage();
    await page.goto(`/products/${detail.id}`);
    await page.getByRole("heading", { level: 1, name: detail.name }).waitFor();
    expect(await page.getByTestId("product-summary").getByText(`by ${detail.vendor}`).isVisible()).toBe(true);
    const thumbs = page.getByTestId("thumbnail");
    expect(await thumbs.count()).toBe(Math.min(detail.images.length, 4));
    const main = page.getByRole("img", { name: detail.name });
    expect(await main.getAttribute("src")).toBe(detail.images[0]);
    await thumbs.nth(1).click();
    expect(await main.getAttribute("src")).toBe(detail.images[1]);
    expect(await thumbs.nth(1).getAttribute("aria-pressed")).toBe("true");

    await page.getByRole("heading", { name: "Key Features" }).waitFor();
    expect(await page.getByText(detail.features[0]!.feature).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "Specifications" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);

    // Switch to INR: 49 USD × 83.2 × 1.02 = 4,158 (Indian grouping, no decimals), per seat per month.
    await page.locator("#currency-picker").selectOption("INR");
    const price = page.getByTestId("price").first();
    await expect.poll(() => price.textContent()).toBe("₹4,158 / user / month");
    await price.hover();
    const tooltip = page.getByRole("tooltip").first();
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toBe("Original price: $49.00 USD");
    // Keyboard users get the same hint: the price is focusable and described by the tooltip.
    expect(await price.getAttribute("aria-describedby")).toBe(await tooltip.getAttribute("id"));
    await expectAccessible(page);

    // Add to cart keeps the buyer on the product, and the toast's View cart opens the cart.
    await page.getByRole("button", { name: "Add to cart", exact: true }).click();
    await page.getByText("Added to cart!").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/products/${detail.id}`);
    expect(await page.getByTestId("cart-count").first().textContent()).toBe("1");
    await page.getByRole("button", { name: "View cart" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/cart");
  });

  test("lakh and crore formatting on expensive products", async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => localStorage.setItem("stackbay.currency", "INR"));
    await page.goto("/products?sort=price-high");
    const top = (await api<ProductList>("/products?sort=price-high&pageSize=1")).items[0]!;
    const inr = top.price * 83.2 * 1.02;
    const expected =
      inr >= 10_000_000 ? `₹${(inr / 10_000_000).toFixed(1)}Cr` : `₹${(inr / 100_000).toFixed(1)}L`;
    await expect.poll(() => page.getByTestId("price").first().textContent()).toBe(expected);
  });

  test("unknown products show 'Product not found' with the way back", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 404/] });
    const response = await page.goto("/products/00000000-0000-4000-8000-000000000000");
    expect(response?.status()).toBe(404);
    await page.getByRole("heading", { name: "Product not found" }).waitFor();
    expect(await page.getByText("The product you're looking for doesn't exist.").isVisible()).toBe(true);
    await page.getByRole("link", { name: "Back to Products" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/products");
  });
});

describe("accessibility and phones", () => {
  test("the products page works on a 375 px phone", async () => {
    const page = await browser.newPage({ width: 375, height: 740 });
    await page.goto("/products");
    await page.getByTestId("product-card").first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page
      .getByTestId("product-card")
      .first()
      .getByRole("button", { name: /Add .* to cart/ })
      .click();
    await page.getByText("Added to cart!").waitFor();
  });

  test("if exchange rates cannot load, prices quietly stay in US dollars", async () => {
    const page = await browser.newPage({ allowErrors: [/status of 503/] });
    await page.addInitScript(() => localStorage.setItem("stackbay.currency", "INR"));
    await page.route("**/api/fx-rates", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: '{"code":"DOWN","message":"down"}',
      }),
    );
    // A page drawn by the server carries the rates it read; a page the browser draws asks for them.
    await page.goto("/login");
    await page.evaluate((path) => {
      history.pushState(null, "", path);
      dispatchEvent(new PopStateEvent("popstate"));
    }, `/products/${detail.id}`);
    await expect
      .poll(() => page.getByTestId("price").first().textContent(), { timeout: 30_000 })
      .toBe("$49 / user / month");
    expect(await page.getByRole("tooltip").count()).toBe(0);
  });
});
