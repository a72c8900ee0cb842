import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { contactMessages, partnerApplications } from "#server/db/schema/inbound";
import type { MailTransport } from "#server/mail/mailer";
import { createTestApp } from "#server/test/app";
import { readOutbox, waitForMail } from "#server/test/outbox";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let ip = 0;
const post = (url: string, payload: object) =>
  t.app.inject({ method: "POST", url, payload, remoteAddress: `10.1.0.${++ip}` });

const contact = {
  name: "Grace Hopper",
  email: "grace@example.com",
  subject: "support",
  message: "Our API keys stopped working this morning.",
};
const application = {
  companyName: "Lumen Data",
  contactPerson: "Ravi Menon",
  email: "ravi@lumen.example",
  productType: "apis",
  country: "south-korea",
  website: "https://lumen.example",
  companySize: "smb",
  message: "We sell a geocoding API used by 400 logistics companies.",
};

describe("contact form", () => {
  test("stores the message and mails the support address with a reply-to of the sender", async () => {
    const res = await post("/api/contact", contact);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    const rows = await t.db.select().from(contactMessages);
    expect(rows).toEqual([expect.objectContaining({ name: "Grace Hopper", subject: "support" })]);
    const mail = (await readOutbox(t.dataDir)).find((m) => m.to === "support@stackbay.test");
    expect(mail?.subject).toBe("[Contact] Technical support from Grace Hopper");
    expect(mail?.replyTo).toBe("grace@example.com");
    expect(mail?.body).toContain("Our API keys stopped working this morning.");
  });

  test("an urgent technical issue is a subject of its own, named in the support e-mail's subject", async () => {
    const res = await post("/api/contact", { ...contact, name: "Ada Lovelace", subject: "urgent" });
    expect(res.statusCode).toBe(200);
    const mail = await waitForMail(t.dataDir, (m) => m.subject.endsWith("from Ada Lovelace"), 30_000);
    expect(mail.subject).toBe("[Contact] Urgent technical issue (a service is down) from Ada Lovelace");
  });

  test.each([
    [{ name: "G" }, "Name must be at least 2 characters"],
    [{ email: "nope" }, "Please enter a valid email address"],
    [{ subject: "" }, "Please select a subject"],
    [{ subject: "spam" }, "Please select a subject"],
    [{ message: "short" }, "Message must be at least 10 characters"],
  ])("%o is refused with '%s'", async (change, text) => {
    const res = await post("/api/contact", { ...contact, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message)).toContain(text);
  });

  test("a filled honeypot is answered as success but nothing is stored or mailed", async () => {
    const before = (await t.db.select().from(contactMessages)).length;
    const mails = (await readOutbox(t.dataDir)).length;
    const res = await post("/api/contact", { ...contact, website: "http://spam.example" });
    expect(res.json()).toEqual({ received: true });
    expect(await t.db.select().from(contactMessages)).toHaveLength(before);
    expect(await readOutbox(t.dataDir)).toHaveLength(mails);
  });

  test("is rate limited per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (
          await t.app.inject({
            method: "POST",
            url: "/api/contact",
            payload: contact,
            remoteAddress: "10.2.2.2",
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  test("a mail failure keeps the message and still answers success", async () => {
    const failing: MailTransport = {
      send: async () => {
        throw new Error("SMTP down");
      },
    };
    const app = await createTestApp({ mailTransport: failing });
    const res = await app.app.inject({ method: "POST", url: "/api/contact", payload: contact });
    expect(res.statusCode).toBe(200);
    expect(await app.db.select().from(contactMessages)).toHaveLength(1);
    await app.close();
  });
});

describe("partner applications", () => {
  test("stores the application as new and acknowledges it to the applicant", async () => {
    const res = await post("/api/partner-applications", application);
    expect(res.json()).toEqual({ received: true });
    const [row] = await t.db.select().from(partnerApplications);
    expect(row).toMatchObject({ companyName: "Lumen Data", country: "south-korea", status: "new" });
    const mail = (await readOutbox(t.dataDir)).find((m) => m.to === "ravi@lumen.example");
    expect(mail?.subject).toBe("We received your application to sell on Stackbay");
    expect(mail?.body).toContain("within 5 business days");
  });

  test.each([
    [{ companyName: "L" }, "Company name must be at least 2 characters"],
    [{ contactPerson: "R" }, "Contact person name must be at least 2 characters"],
    [{ email: "x" }, "Please enter a valid email address"],
    [{ productType: "" }, "Please select a product type"],
    [{ country: "Atlantis" }, "Please select your country"],
    [{ website: "lumen" }, "Please enter a valid website URL"],
    [{ website: "ftp://lumen.example" }, "Please enter a valid website URL"],
    [{ companySize: "" }, "Please select company size"],
    [{ message: "Too short" }, "Message must be at least 20 characters"],
  ])("%o is refused with '%s'", async (change, text) => {
    const res = await post("/api/partner-applications", { ...application, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message)).toContain(text);
  });
});
