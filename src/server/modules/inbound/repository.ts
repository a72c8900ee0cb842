import type { Db } from "#server/db/client";
import { contactMessages, partnerApplications } from "#server/db/schema/inbound";

/** Stores a contact message; its id is the reference the team's mail quotes. */
export async function insertContactMessage(db: Db, values: typeof contactMessages.$inferInsert) {
  const [row] = await db.insert(contactMessages).values(values).returning({ id: contactMessages.id });
  return row?.id;
}

/** Stores a partner application (status "new"); its id is the reference the applicant is mailed. */
export async function insertPartnerApplication(db: Db, values: typeof partnerApplications.$inferInsert) {
  const [row] = await db.insert(partnerApplications).values(values).returning({ id: partnerApplications.id });
  return row?.id;
}
