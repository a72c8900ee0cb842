import type { Cookie, Page } from "playwright-core";
import { beforeAll, describe, expect, test } from "vitest";
import { baseUrl, expectAccessible, setupBrowser, submitLogin, toast } from "./browser";

const browser = setupBrowser();

// The reseller demo account is used by no other journey, so its saved list is ours to change.
const email = "reseller@stackbay.test";
const password = "stackbay-demo";
let products: { id: string; name: string }[] = [];
let session: Cookie[] | undefined;

beforeAll(async () => {
  const res = await fetch(`${baseUrl()}/api/products?pageSize=2`);
  products = (await res.json()).items;
  expect(products).toHaveLength(2);
});

const saveButton = (page: Page) => page.getByTestId("save-button");

/** A page signed in as the reseller: through the login form once, then with the same cookies. */
async function signedIn(path: string) {
  const page = await browser.newPage();
  if (session) {
    await page.context().addCookies(session);
  } else {
    await page.goto("/login");
    await submitLogin(page, email, password);
    await page.waitForURL((url) => url.pathname === "/");
    session = await page.context().cookies();
  }
  await page.goto(path);
  return page;
}

async function toggleOnProductPage(page: Page, from: "Save" | "Saved") {
  const button = saveButton(page);
  await expect.poll(() => button.isEnabled()).toBe(true);
  expect(await button.textContent()).toBe(from);
  await button.click();
}

describe("saved products", () => {
  test("a visitor cannot save: the button is disabled and says to log in", async () => {
    const [product] = products;
    const page = await browser.newPage();
    await page.goto(`/products/${product?.id}`);
    await page.getByRole("heading", { level: 1, name: product?.name }).waitFor();
    const button = saveButton(page);
    expect(await button.isDisabled()).toBe(true);
    expect(await button.getAttribute("title")).toBe("Log in to save products");
    expect(await page.getByText("to save products for later.").isVisible()).toBe(true);
  });

  test("save on the product page, see it in the dashboard, remove it there", async () => {
    const [first, second] = products;
    if (!first || !second) throw new Error("the demo catalogue has no products");

    const page = await signedIn(`/products/${first.id}`);
    await page.getByRole("heading", { level: 1, name: first.name }).waitFor();
    await toggleOnProductPage(page, "Save");
    await toast(page, "Product saved!", "Product has been added to your saved items.").waitFor();
    await expect.poll(() => saveButton(page).textContent()).toBe("Saved");
    expect(await saveButton(page).getAttribute("aria-pressed")).toBe("true");

    // Unsaving from the product page flips it back.
    await toggleOnProductPage(page, "Saved");
    await toast(page, "Product removed", "Product has been removed from your saved items.").waitFor();
    await expect.poll(() => saveButton(page).textContent()).toBe("Save");
    expect(await saveButton(page).getAttribute("aria-pressed")).toBe("false");

    // Save two, then the state survives a reload.
    await toggleOnProductPage(page, "Save");
    await expect.poll(() => saveButton(page).textContent()).toBe("Saved");
    await page.goto(`/products/${second.id}`);
    await page.getByRole("heading", { level: 1, name: second.name }).waitFor();
    await toggleOnProductPage(page, "Save");
    await expect.poll(() => saveButton(page).textContent()).toBe("Saved");
    await page.reload();
    await expect.poll(() => saveButton(page).textContent()).toBe("Saved");

    await page.goto("/dashboard/saved");
    const items = page.getByTestId("saved-item");
    await expect.poll(() => items.count()).toBe(2);
    // Newest saved first.
    expect(await items.nth(0).getByRole("heading", { level: 3 }).textContent()).toBe(second.name);
    expect(await items.nth(1).getByRole("heading", { level: 3 }).textContent()).toBe(first.name);
    await expectAccessible(page);

    await page.getByRole("button", { name: `Remove ${second.name} from saved items` }).click();
    await toast(page, "Product removed", "Product has been removed from your saved items.").waitFor();
    await expect.poll(() => items.count()).toBe(1);
    await page.getByRole("button", { name: `Remove ${first.name} from saved items` }).click();
    await page.getByRole("heading", { name: "No saved items yet" }).waitFor();
    expect(await page.getByRole("link", { name: "Browse Products" }).getAttribute("href")).toBe("/products");
    await expectAccessible(page);

    // The product page agrees.
    await page.goto(`/products/${first.id}`);
    await page.getByRole("heading", { level: 1, name: first.name }).waitFor();
    await expect.poll(() => saveButton(page).isEnabled()).toBe(true);
    expect(await saveButton(page).textContent()).toBe("Save");
  });
});
