import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CALENDAR_CSV_HEADER, renewalCalendar } from "#domain/renewal-calendar";
import type { SubscriptionList } from "#domain/subscription-schemas";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
});
afterAll(async () => {
  await t.close();
});

async function desk(client: Client): Promise<SubscriptionList> {
  const res = await client.get("/api/subscriptions");
  expect(res.statusCode).toBe(200);
  return res.json() as SubscriptionList;
}
/** The renewals the desk's calendar lists, from the desk's own answer. */
async function calendarOf(client: Client) {
  const { items, asOf } = await desk(client);
  return { items, renewals: renewalCalendar(items, new Date(asOf)) };
}
const uids = (ics: string) => [...ics.matchAll(/^UID:(.+)\r$/gm)].map((m) => m[1]);

describe("the renewal calendar downloads", () => {
  test("the demo buyer's .ics: one all-day event per renewal of the coming 12 months, as the desk lists them", async () => {
    const { items, renewals } = await calendarOf(buyer);
    const res = await buyer.get("/api/subscriptions/calendar.ics");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/calendar; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="stackbay-renewals.ics"');
    const ics = res.body;
    expect(ics.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(renewals.length);
    expect(uids(ics)).toEqual(renewals.map((r) => `${r.subscriptionId}-${r.periodIndex}@stackbay`));
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    // The seeded desk: a yearly one renews once, a monthly one twelve times, the past-due one first.
    const byName = new Map(items.map((s) => [s.productName, s]));
    const count = (name: string) => renewals.filter((r) => r.subscriptionId === byName.get(name)?.id).length;
    expect(count("Tidewell QueryDesk")).toBe(1);
    expect(count("Orbitide Uptime Board")).toBe(12);
    expect(renewals[0]).toMatchObject({
      subscriptionId: byName.get("Driftpoint Product Analytics")?.id,
      overdue: true,
    });
    expect(ics).toContain("SUMMARY:Renewal: Tidewell QueryDesk");
    expect(ics.replaceAll("\r\n ", "")).toContain("/dashboard/subscriptions\r\n");
    // A second download names the same events.
    expect(uids((await buyer.get("/api/subscriptions/calendar.ics")).body)).toEqual(uids(ics));
  });

  test("the .csv: a header and one row per renewal", async () => {
    const { renewals } = await calendarOf(buyer);
    const res = await buyer.get("/api/subscriptions/calendar.csv");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="stackbay-renewals.csv"');
    const lines = res.body.split("\r\n").filter((line) => line !== "");
    expect(lines[0]).toBe(CALENDAR_CSV_HEADER.join(","));
    expect(lines).toHaveLength(renewals.length + 1);
    const first = renewals[0];
    expect(lines[1]).toContain(`"${first?.dueAt.slice(0, 10)}","${first?.productName}"`);
    expect(lines[1]).toContain(',"USD","Overdue"');
  });

  test("signed out, both answer 401", async () => {
    for (const file of ["ics", "csv"]) {
      const res = await createClient(t.app).get(`/api/subscriptions/calendar.${file}`);
      expect(res.statusCode).toBe(401);
    }
  });

  test("another buyer's calendar holds only their own subscriptions, and the demo buyer's none of theirs", async () => {
    const [product] = await t.db
      .insert(products)
      .values({
        name: "Calendar Notes",
        category: "saas",
        price: "7",
        pricingUnit: "month",
        vendor: "Notes Co",
      })
      .returning({ id: products.id });
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "calendar@example.com" });
    const other = await signedInClient(t.app, account.email, account.password);
    expect((await other.get("/api/subscriptions/calendar.csv")).body).toBe(
      `${CALENDAR_CSV_HEADER.join(",")}\r\n`,
    );
    expect((await other.get("/api/subscriptions/calendar.ics")).body).not.toContain("BEGIN:VEVENT");

    await placeAndPay(t.app, other, { items: [{ productId: product?.id ?? "", quantity: 1, price: 7 }] });
    const { items } = await desk(other);
    expect(items).toHaveLength(1);
    const theirs = items[0]?.id ?? "";
    const ics = (await other.get("/api/subscriptions/calendar.ics")).body;
    expect(ics.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(12);
    expect(new Set(uids(ics).map((uid) => uid?.replace(/-\d+@stackbay$/, "")))).toEqual(new Set([theirs]));
    const csv = (await other.get("/api/subscriptions/calendar.csv")).body;
    expect(csv.split("\r\n").filter((line) => line.includes('"Calendar Notes"'))).toHaveLength(12);

    const mine = (await buyer.get("/api/subscriptions/calendar.ics")).body;
    expect(mine).not.toContain(theirs);
    expect((await buyer.get("/api/subscriptions/calendar.csv")).body).not.toContain("Calendar Notes");
  });
});
