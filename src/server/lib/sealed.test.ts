import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { seal, unseal } from "#server/lib/sealed";

const secret = randomBytes(32).toString("base64url");

describe("sealed values", () => {
  test("open with the same secret and purpose, and hide the text", () => {
    const sealed = seal(secret, "mail", "Your code is 123456");
    expect(sealed).not.toContain("123456");
    expect(unseal(secret, "mail", sealed)).toBe("Your code is 123456");
    expect(seal(secret, "mail", "same")).not.toBe(seal(secret, "mail", "same"));
  });

  test("refuse another purpose, another secret or a changed byte", () => {
    const sealed = seal(secret, "mail", "payload");
    expect(() => unseal(secret, "payout", sealed)).toThrow();
    expect(() => unseal(randomBytes(32).toString("base64url"), "mail", sealed)).toThrow();
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() =>
      unseal(secret, "mail", [...parts.slice(0, 3), body.toString("base64url")].join(".")),
    ).toThrow();
    expect(() => unseal(secret, "mail", "plain text")).toThrow();
  });
});
