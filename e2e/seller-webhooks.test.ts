import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { paths } from "#domain/routes";
import { WEBHOOK_SECRET_PATTERN, WEBHOOK_TOLERANCE_SECONDS } from "#domain/seller-webhooks";
import { dialogReady, expectAccessible, setupBrowser, snapshot, toast, viewports } from "./browser";

const browser = setupBrowser();

/** The developers page's verification recipe, as a receiver runs it. */
function verify(rawBody: string, header: string, secret: string): boolean {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([key]) => key === "t")?.[1]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS)
    return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest();
  return parts
    .filter(([key]) => key === "v1")
    .some(([, value]) => {
      const given = Buffer.from(value ?? "", "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** The seller's receiver: a loopback server the test starts, recording what it is sent, by path. */
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    received.push({
      path: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    });
    res.writeHead(200).end("ok");
  });
});
let receiverUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the seller's webhooks", () => {
  for (const viewport of viewports()) {
    test(`at ${viewport.width} px ${viewport.theme}: a seller adds an endpoint, sees its secret once, sends a test event that arrives signed, and sees it delivered in the log`, async () => {
      const page = await browser.newPage({ as: "seller", width: viewport.width, theme: viewport.theme });
      const path = `/hooks/${viewport.width}-${randomUUID().slice(0, 8)}`;
      const url = `${receiverUrl}${path}`;
      await page.goto(paths.dashboard("webhooks"));
      await page.getByRole("heading", { level: 2, name: "Webhooks" }).waitFor();
      expect(await page.title()).toBe("Webhooks · Dashboard | Stackbay");
      const nav = page.getByRole("navigation", {
        name: viewport.width < 768 ? "Dashboard views" : "Dashboard menu",
      });
      expect(await nav.getByRole("link", { name: "Webhooks" }).getAttribute("aria-current")).toBe("page");

      // The form checks what the API checks before anything is sent.
      await page.getByRole("button", { name: "Add endpoint", exact: true }).click();
      const dialog = page.getByRole("alertdialog");
      await dialogReady(dialog);
      await dialog.getByRole("button", { name: "Add endpoint" }).click();
      await dialog.getByText("Choose at least one event").waitFor();
      await dialog.getByLabel("URL").fill(url);
      await dialog.getByLabel("Description").fill("Journey receiver");
      await dialog.getByRole("checkbox", { name: /^order\.paid/ }).check();
      await dialog.getByRole("checkbox", { name: /^question\.asked/ }).check();
      await snapshot(page, `seller-webhooks-form-${viewport.width}-${viewport.theme}`);
      await dialog.getByRole("button", { name: "Add endpoint" }).click();

      // The signing secret, once.
      const field = dialog.getByRole("textbox", { name: "Signing secret" });
      await field.waitFor();
      const secret = await field.inputValue();
      expect(secret).toMatch(WEBHOOK_SECRET_PATTERN);
      expect(await dialog.textContent()).toContain("it will not be shown again");
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Done" }).click();
      await dialog.waitFor({ state: "detached" });

      const card = page.getByTestId("webhook-endpoint").filter({ hasText: url });
      await card.waitFor();
      expect(await card.textContent()).toContain("order.paid");
      expect(await page.content()).not.toContain(secret);

      // A test event: it arrives at the receiver, signed with the secret shown.
      await card.getByRole("button", { name: `Send test event: ${url}` }).click();
      await toast(page, "Test event delivered").waitFor();
      const got = received.filter((request) => request.path === path);
      expect(got).toHaveLength(1);
      const [request] = got;
      const body = JSON.parse(request!.body) as { id: string; type: string };
      expect(body.type).toBe("ping");
      expect(verify(request!.body, String(request!.headers["stackbay-signature"]), secret)).toBe(true);

      // The log shows it delivered, with its payload.
      const row = page.getByTestId("webhook-delivery-row").filter({ hasText: body.id });
      await row.waitFor();
      expect(await row.getByTestId("webhook-delivery-type").textContent()).toBe("ping");
      expect(await row.getByTestId("webhook-delivery-status").textContent()).toBe("Delivered");
      expect(await row.textContent()).toContain("200 OK");
      await row.getByText("Show").click();
      expect(await row.locator("pre").textContent()).toContain(body.id);
      await expectAccessible(page);
      await snapshot(page, `seller-webhooks-log-${viewport.width}-${viewport.theme}`, { fullPage: true });

      // Deleted: it leaves the list, and its deliveries the log.
      await card.getByRole("button", { name: `Delete: ${url}` }).click();
      await dialogReady(dialog);
      await dialog.getByRole("button", { name: "Delete endpoint" }).click();
      await card.waitFor({ state: "detached" });
      await row.waitFor({ state: "detached" });
    });
  }
});
