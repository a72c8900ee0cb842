import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { licenses } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { Mail } from "#server/mail/mailer";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";

let t: Awaited<ReturnType<typeof createTestApp>>;
const ids: Record<string, string> = {};

/** A billing name to escape and a billing address that is not the account's. */
const billing = { fullName: "Bianca <b>Buyer</b>", email: "billing@example.com" };

async function mailsTo(to: string) {
  return (await readOutbox(t.dataDir)).filter((m) => m.to === to);
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const made = await t.db
    .insert(products)
    .values([
      { name: "Seat License", category: "software", price: "19.99", vendor: "Acme" },
      { name: "Dev Board", category: "hardware", price: "40", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(() => t.close());

describe("order confirmation e-mail", () => {
  test("goes to the account's address with items, totals, license keys and the invoice link", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const order = await placeAndPay(t.app, buyer, {
      ...billing,
      items: [
        { productId: ids["Seat License"] ?? "", quantity: 2, price: 19.99 },
        { productId: ids["Dev Board"] ?? "", price: 40 },
      ],
      currency: "EUR",
    });
    const keys = (await t.db.select().from(licenses).where(eq(licenses.orderId, order.id))).map((l) => l.key);
    expect(keys).toHaveLength(2);

    const mails = await mailsTo("buyer@stackbay.test");
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.subject).toBe(`Your Stackbay order ${order.id.slice(0, 8)} is confirmed`);
    const invoiceUrl = `http://127.0.0.1:3000/dashboard/orders/${order.id}/invoice`;
    for (const text of [
      "Hi Bianca <b>Buyer</b>,",
      "Seat License × 2: $39.98",
      "Dev Board × 1: $40.00",
      "Subtotal: $79.98",
      // 5% of 79.98 is 3.999: to the cent.
      "UAE VAT (5%): $4.00",
      "Total: $83.98 USD",
      // 83.98 × 0.9384 = 78.8068: an amount owed, to the cent.
      "Shown at checkout as €78.81 at 1 USD = 0.9384 EUR",
      // Both keys on the product's line, in whichever order they were issued.
      ...keys,
      invoiceUrl,
      "http://127.0.0.1:3000/dashboard",
      // The HTML part: escaped values and the keys.
      "Hi Bianca &lt;b&gt;Buyer&lt;/b&gt;,",
      `<code style="font-size:15px">${keys[0]}</code>`,
      `href="${invoiceUrl}"`,
    ]) {
      expect(mail?.body).toContain(text);
    }
    expect(mail?.body).toMatch(new RegExp(`Seat License: (${keys.join("|")}), (${keys.join("|")})`));
    expect(mail?.body).not.toContain("<b>Buyer</b></p>");
    // A hardware-only order gets its e-mail without a license section.
    await placeAndPay(t.app, buyer, {
      ...billing,
      items: [{ productId: ids["Dev Board"] ?? "", price: 40 }],
    });
    const second = (await mailsTo("buyer@stackbay.test")).at(-1);
    expect(second?.body).toContain("Dev Board × 1: $40.00");
    expect(second?.body).not.toContain("license keys");
  });

  test("a billing e-mail of someone else gets nothing: keys go only to the account's verified address", async () => {
    const before = (await readOutbox(t.dataDir)).length;
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    await placeAndPay(t.app, buyer, {
      ...billing,
      email: "someone.else@example.com",
      items: [{ productId: ids["Seat License"] ?? "", price: 19.99 }],
    });
    const sent = (await readOutbox(t.dataDir)).slice(before);
    expect(sent.map((m) => m.to)).toEqual(["buyer@stackbay.test"]);
    expect(await mailsTo("someone.else@example.com")).toEqual([]);
  });

  test("an order still succeeds when the mailer fails", async () => {
    const sent: Mail[] = [];
    const broken = await createTestApp({
      seed: true,
      mailTransport: {
        send: async (mail) => {
          sent.push(mail);
          if (mail.subject.startsWith("Your Stackbay order")) throw new Error("SMTP is down");
        },
      },
    });
    try {
      const [product] = await broken.db
        .insert(products)
        .values({ name: "Editor Pro", category: "software", price: "30" })
        .returning({ id: products.id });
      const buyer = await signedInClient(broken.app, "buyer@stackbay.test", DEMO_PASSWORD);
      const order = await placeAndPay(broken.app, buyer, {
        ...billing,
        items: [{ productId: product?.id ?? "", price: 30 }],
      });
      expect(order).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
      expect(sent.filter((m) => m.subject.startsWith("Your Stackbay order"))).toHaveLength(1);
      expect(await broken.db.select().from(licenses).where(eq(licenses.orderId, order.id))).toHaveLength(1);
    } finally {
      await broken.close();
    }
  });
});
