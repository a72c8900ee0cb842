import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { newsletterSubscriptions } from "#server/db/schema/inbound";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

const application = (email: string) => ({
  companyName: "Lumen Data",
  contactPerson: "Ravi Menon",
  email,
  productType: "apis",
  country: "india",
  website: "https://lumen.example",
  companySize: "smb",
  message: "We sell a geocoding API used by 400 logistics companies.",
});

describe("admin inbox", () => {
  test("contact messages arrive newest first", async () => {
    const visitor = createClient(t.app);
    for (const name of ["First Sender", "Second Sender"]) {
      await visitor.post("/api/contact", {
        name,
        email: "sender@example.com",
        subject: "billing",
        message: "Please send the invoice for March again.",
      });
    }
    const res = await admin.get("/api/admin/inbox/messages");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const body = res.json();
    expect(body).toMatchObject({ total: 2, page: 1, pageSize: 25 });
    expect(body.items.map((m: { name: string }) => m.name)).toEqual(["Second Sender", "First Sender"]);
  });

  test("approving an application makes the applicant's account a seller; the status filter works", async () => {
    const { email } = await createVerifiedAccount(t.app, t.dataDir, { email: "ravi@lumen.example" });
    await createClient(t.app).post("/api/partner-applications", application(email));
    await createClient(t.app).post("/api/partner-applications", application("no-account@else.example"));

    const list = (await admin.get("/api/admin/inbox/applications?status=new")).json();
    expect(list.total).toBe(2);
    const mine = list.items.find((a: { email: string }) => a.email === email);

    const reviewing = await admin.patch(`/api/admin/inbox/applications/${mine.id}`, { status: "reviewing" });
    expect(reviewing.json()).toMatchObject({ application: { status: "reviewing" }, sellerGranted: false });
    expect((await admin.get("/api/admin/inbox/applications?status=new")).json().total).toBe(1);

    const approved = await admin.patch(`/api/admin/inbox/applications/${mine.id}`, { status: "approved" });
    expect(approved.json()).toMatchObject({ application: { status: "approved" }, sellerGranted: true });
    const [row] = await t.db.select().from(user).where(eq(user.email, email));
    expect(row?.isSeller).toBe(true);
    const trail = await t.db.select().from(auditLog);
    // Entries of one transaction share its timestamp, so their order is not asserted.
    expect(trail).toHaveLength(3);
    expect(trail.map((e) => [e.entityType, e.changes])).toEqual(
      expect.arrayContaining([
        ["partner_application", { status: { before: "new", after: "reviewing" } }],
        ["partner_application", { status: { before: "reviewing", after: "approved" } }],
        ["user", { isSeller: { before: false, after: true } }],
      ]),
    );
    expect(trail.every((e) => e.actorEmail === "admin@stackbay.test")).toBe(true);

    const other = list.items.find((a: { email: string }) => a.email !== email);
    const noAccount = await admin.patch(`/api/admin/inbox/applications/${other.id}`, { status: "approved" });
    expect(noAccount.json().sellerGranted).toBe(false);
  });

  test("bad status, unknown id and malformed id are refused clearly", async () => {
    const bad = await admin.patch("/api/admin/inbox/applications/00000000-0000-4000-8000-000000000000", {
      status: "hired",
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].message).toBe("Status must be new, reviewing, approved or rejected");
    const missing = await admin.patch("/api/admin/inbox/applications/00000000-0000-4000-8000-000000000000", {
      status: "approved",
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("APPLICATION_NOT_FOUND");
    expect(
      (await admin.patch("/api/admin/inbox/applications/not-an-id", { status: "approved" })).statusCode,
    ).toBe(400);
  });

  test("subscribers list every state; the CSV holds only confirmed, active ones, formulas defused", async () => {
    const now = new Date("2026-11-01T10:00:00Z");
    await t.db
      .insert(newsletterSubscriptions)
      .values([
        { email: "confirmed@example.com", confirmedAt: now },
        { email: "pending@example.com" },
        { email: "gone@example.com", confirmedAt: now, unsubscribedAt: now },
        { email: "=cmd@example.com", confirmedAt: now },
      ]);
    const list = (await admin.get("/api/admin/inbox/subscribers")).json();
    expect(
      Object.fromEntries(list.items.map((s: { email: string; status: string }) => [s.email, s.status])),
    ).toEqual({
      "confirmed@example.com": "confirmed",
      "pending@example.com": "pending",
      "gone@example.com": "unsubscribed",
      "=cmd@example.com": "confirmed",
    });
    const csv = await admin.get("/api/admin/inbox/subscribers.csv");
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toMatch(
      /^attachment; filename="stackbay-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.body).toBe(
      'email,confirmed_at\r\n"\'=cmd@example.com","2026-11-01T10:00:00.000Z"\r\n"confirmed@example.com","2026-11-01T10:00:00.000Z"\r\n',
    );
  });

  test("a seller or buyer cannot read the inbox", async () => {
    for (const who of ["buyer", "seller"]) {
      const client = await signedInClient(t.app, `${who}@stackbay.test`, DEMO_PASSWORD);
      expect((await client.get("/api/admin/inbox/subscribers.csv")).statusCode).toBe(403);
    }
    expect((await createClient(t.app).get("/api/admin/inbox/messages")).statusCode).toBe(401);
  });
});
