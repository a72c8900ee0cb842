import { randomUUID } from "node:crypto";
import { hash } from "@node-rs/argon2";
import { eq } from "drizzle-orm";
import type { Role } from "#domain/accounts";
import type { Database } from "#server/db/client";
import { account, user } from "#server/db/schema/auth";
import { ensureStorefront } from "#server/modules/storefronts/repository";

const roleFlags: Record<Role, Partial<typeof user.$inferInsert>> = {
  buyer: { isBuyer: true },
  seller: { isSeller: true },
  reseller: { isReseller: true },
  admin: { isAdmin: true },
  superAdmin: { isAdmin: true, isSuperAdmin: true },
};

export type NewAccount = {
  email: string;
  /** The password, or its argon2id hash when several accounts share one (the demo accounts). */
  password: string | { hash: string };
  firstName: string;
  lastName: string;
  roles: Role[];
  /** A seller's storefront name when it is not the person's (demo vendors). */
  storefront?: string;
};

/**
 * An account with a verified address and an argon2id password, outside the sign-up flow (the first
 * admin of an install, demo data). An existing address keeps its password and gains the roles.
 */
export async function createOrGrantAccount(db: Database, input: NewAccount) {
  const flags = Object.assign({}, ...input.roles.map((role) => roleFlags[role]));
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, input.email));
  if (existing) {
    if (input.roles.length > 0) await db.update(user).set(flags).where(eq(user.id, existing.id));
    if (flags.isSeller) await ensureStorefront(db, { id: existing.id, ...input }, input.storefront);
    return { id: existing.id, created: false };
  }
  const id = randomUUID();
  const passwordHash = typeof input.password === "string" ? await hash(input.password) : input.password.hash;
  await db.transaction(async (tx) => {
    await tx.insert(user).values({
      id,
      name: `${input.firstName} ${input.lastName}`.trim(),
      email: input.email,
      emailVerified: true,
      firstName: input.firstName,
      lastName: input.lastName,
      isBuyer: input.roles.length === 0 || input.roles.includes("buyer"),
      ...flags,
    });
    await tx.insert(account).values({
      id: randomUUID(),
      accountId: id,
      providerId: "credential",
      userId: id,
      password: passwordHash,
    });
    if (flags.isSeller) await ensureStorefront(tx, { id, ...input }, input.storefront);
  });
  return { id, created: true };
}
