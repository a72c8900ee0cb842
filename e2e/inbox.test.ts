import { describe, expect, test } from "vitest";
import { baseUrl, expectAccessible, setupBrowser, submitLogin } from "./browser";

const browser = setupBrowser();
const run = Date.now().toString(36);

async function post(path: string, body: object) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("admin inbox", () => {
  test("an admin reads a message, approves an application and finds the subscriber export", async () => {
    await post("/api/contact", {
      name: `Inbox Sender ${run}`,
      email: "sender@example.com",
      subject: "partnership",
      message: "We would like to list our observability suite on Stackbay.",
    });
    await post("/api/partner-applications", {
      companyName: `Orbit Labs ${run}`,
      contactPerson: "Mina Park",
      // Already a seller, so approving changes no role other journeys rely on.
      email: "seller@stackbay.test",
      productType: "saas",
      country: "south-korea",
      website: "https://orbit.example",
      companySize: "startup",
      message: "Orbit monitors uptime for 2,000 small online shops in Asia.",
    });

    const page = await browser.newPage();
    await page.goto("/admin/inbox");
    await page.waitForURL("**/login");
    await submitLogin(page, "admin@stackbay.test", "stackbay-demo");
    await page.waitForURL("**/admin/inbox");

    await page.getByRole("heading", { level: 1, name: "Inbox" }).waitFor();
    await page.getByText(`Inbox Sender ${run}`).waitFor();
    expect(await page.getByText("Partnership", { exact: true }).first().isVisible()).toBe(true);
    await expectAccessible(page);

    await page.getByRole("button", { name: "Partner applications" }).click();
    await page.waitForURL("**/admin/inbox?tab=applications");
    const card = page.getByRole("listitem").filter({ hasText: `Orbit Labs ${run}` });
    await card.waitFor();
    await expectAccessible(page);
    await card.getByLabel("Status").selectOption("approved");
    await page.getByText("The applicant's Stackbay account now has seller rights.").waitFor();
    expect(await card.getByLabel("Status").inputValue()).toBe("approved");

    await page.getByLabel("Show").selectOption("approved");
    await page.waitForURL("**status=approved");
    await page.getByRole("heading", { name: `Orbit Labs ${run}` }).waitFor();

    await page.getByRole("button", { name: "Subscribers" }).click();
    const exportLink = page.getByRole("link", { name: "Export CSV" });
    await exportLink.waitFor();
    expect(await exportLink.getAttribute("href")).toBe("/api/admin/inbox/subscribers.csv");
    const csv = await page.request.get("/api/admin/inbox/subscribers.csv");
    expect(csv.status()).toBe(200);
    expect((await csv.text()).startsWith("email,confirmed_at")).toBe(true);
    await expectAccessible(page);
  });

  test("a buyer is turned away", async () => {
    const page = await browser.newPage();
    await page.goto("/login");
    await submitLogin(page, "buyer@stackbay.test", "stackbay-demo");
    await page.waitForURL((url) => url.pathname === "/");
    await page.goto("/admin/inbox");
    await page.getByRole("heading", { name: "Unauthorized Access" }).waitFor();
    expect(await page.getByRole("link", { name: "Go to Dashboard" }).isVisible()).toBe(true);
  });
});
