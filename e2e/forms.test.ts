import { describe, expect, test } from "vitest";
import { waitForMail } from "#server/test/outbox";
import { dataDir, expectAccessible, setupBrowser } from "./browser";

const browser = setupBrowser();

describe("contact form", () => {
  test("shows each field's error, then sends, says so, resets and reaches the support inbox", async () => {
    const page = await browser.newPage();
    await page.goto("/contact");
    await page.getByRole("heading", { level: 1, name: "Contact Us" }).waitFor();
    for (const text of ["Monday to Friday", "9:00 AM to 6:00 PM PST", "Dubai Silicon Oasis, Dubai, UAE"]) {
      expect(await page.getByText(text).isVisible()).toBe(true);
    }
    await page.getByLabel("Name", { exact: true }).fill("A");
    await page.getByRole("button", { name: "Send Message" }).click();
    for (const text of [
      "Name must be at least 2 characters",
      "Email is required",
      "Please select a subject",
      "Message must be at least 10 characters",
    ]) {
      await page.getByText(text).waitFor();
    }
    expect(await page.getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("E-mail").fill("not-an-address");
    await page.getByText("Please enter a valid email address").waitFor();
    await expectAccessible(page);

    await page.getByLabel("Name", { exact: true }).fill("Linus Journey");
    await page.getByLabel("E-mail").fill("linus@example.com");
    await page.getByLabel("Subject").selectOption("billing");
    await page.getByLabel("Message", { exact: true }).fill("Please send me a VAT invoice for my last order.");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText("Message sent successfully!").waitFor();
    expect(await page.getByText("We'll get back to you within 24 hours.").isVisible()).toBe(true);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("");
    const mail = await waitForMail(dataDir(), (m) => m.replyTo === "linus@example.com");
    expect(mail?.subject).toBe("[Contact] Billing from Linus Journey");
  });
});

describe("partner application", () => {
  test("submits, confirms on screen and acknowledges by e-mail", async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await page.goto("/partner");
    await page.getByText("Established vendors").waitFor();
    await page.getByRole("button", { name: "Submit Application" }).click();
    await page.getByText("Please enter a valid website URL").waitFor();
    await page.getByLabel("Company name").fill("Orbit Hardware");
    await page.getByLabel("Contact person").fill("Mina Park");
    await page.getByLabel("Business e-mail").fill("mina@orbit.example");
    await page.getByLabel("Website").fill("https://orbit.example");
    await page.getByLabel("Product type").selectOption("hardware");
    await page.getByLabel("Country").selectOption("south-korea");
    await page.getByLabel("Company size").selectOption("enterprise");
    await page.getByLabel("Tell us about your products").fill("Rugged edge servers for factories and ports.");
    await page.getByRole("button", { name: "Submit Application" }).click();
    await page.getByText("Application submitted successfully!").waitFor();
    expect(await page.getByLabel("Company name").inputValue()).toBe("");
    const mail = await waitForMail(dataDir(), (m) => m.to === "mina@orbit.example");
    expect(mail?.subject).toBe("We received your application to sell on Stackbay");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
  });
});

describe("newsletter", () => {
  test("subscribe in the footer, then confirm with the link from the e-mail", async () => {
    const page = await browser.newPage();
    await page.goto("/about");
    const footer = page.getByTestId("footer");
    // The form's code loads when the footer comes near, as it does for a person scrolling down.
    await footer.scrollIntoViewIfNeeded();
    await footer.getByLabel("Get deals and product news").fill("confirm-me@example.com");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await page.getByText("Thank you for subscribing!").waitFor();
    await footer.getByText("Check your inbox").waitFor();
    const mail = await waitForMail(dataDir(), (m) => m.to === "confirm-me@example.com");
    const link = mail.body.match(/http:\/\/[^\s"]+\/api\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/)?.[0];
    expect(link).toBeDefined();
    const path = new URL(link!).pathname + new URL(link!).search;
    await page.goto(path);
    await page.getByText("Subscription confirmed").waitFor();
    expect(new URL(page.url()).search).toBe("");
  });
});
