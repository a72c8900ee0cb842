import { describe, expect, test } from "vitest";
import {
  commissionDecisionSchema,
  emailDomain,
  holdReasonText,
  isPublicMailDomain,
  selfReferralReasons,
} from "#domain/commission-holds";
import { decideHeldCommission } from "#domain/commissions";

const reseller = {
  email: "rex@acme.io",
  hashes: { device: ["dev-home", "dev-office"], network: ["net-home", "net-office"] },
};
const stranger = { hashes: { device: "dev-x", network: "net-x" }, emails: ["ann@gmail.com"] };

describe("self-referral reasons", () => {
  test("a stranger on another device and network, with a public address, is not held", () => {
    expect(selfReferralReasons(stranger, reseller)).toEqual([]);
  });

  test("the same device (address and browser) as a reseller's sign-in", () => {
    expect(
      selfReferralReasons({ ...stranger, hashes: { device: "dev-office", network: "net-x" } }, reseller),
    ).toEqual([{ code: "same_device" }]);
  });

  test("the same network address; a same device is then also the same network", () => {
    expect(
      selfReferralReasons({ ...stranger, hashes: { device: "dev-x", network: "net-home" } }, reseller),
    ).toEqual([{ code: "same_network" }]);
    expect(
      selfReferralReasons({ ...stranger, hashes: { device: "dev-home", network: "net-home" } }, reseller),
    ).toEqual([{ code: "same_device" }, { code: "same_network" }]);
  });

  test("signals that could not be told (an old order, a local address) never match", () => {
    expect(selfReferralReasons({ hashes: {}, emails: ["ann@gmail.com"] }, reseller)).toEqual([]);
    expect(selfReferralReasons(stranger, { email: "rex@acme.io", hashes: {} })).toEqual([]);
  });

  test("the buyer's address on the reseller's own domain, or a subdomain of it, in any case", () => {
    for (const email of ["bob@acme.io", "Bob@ACME.io", "bob@sales.acme.io"]) {
      expect(selfReferralReasons({ ...stranger, emails: ["x@gmail.com", email] }, reseller), email).toEqual([
        { code: "own_email_domain", domain: "acme.io" },
      ]);
    }
    expect(
      selfReferralReasons({ ...stranger, emails: ["bob@acme.com", "bob@notacme.io"] }, reseller),
    ).toEqual([]);
  });

  test("a public mail provider or the demo domain is nobody's own domain", () => {
    for (const domain of [
      "gmail.com",
      "outlook.com",
      "hotmail.com",
      "yahoo.com",
      "icloud.com",
      "proton.me",
    ]) {
      const shared = { email: `rex@${domain}`, hashes: {} };
      expect(selfReferralReasons({ hashes: {}, emails: [`bob@${domain}`] }, shared), domain).toEqual([]);
    }
    for (const domain of ["gmx.de", "gmx.net", "yahoo.co.uk", "protonmail.com", "stackbay.test"])
      expect(isPublicMailDomain(domain), domain).toBe(true);
    expect(isPublicMailDomain("acme.io")).toBe(false);
    expect(isPublicMailDomain("gmxtools.com")).toBe(false);
    expect(emailDomain("A.B@Mail.Acme.IO")).toBe("mail.acme.io");
  });

  test("every reason has a text for admins", () => {
    expect(holdReasonText({ code: "same_device" })).toBe("Same device as the reseller's sign-ins");
    expect(holdReasonText({ code: "same_network" })).toBe("Same network address as the reseller's sign-ins");
    expect(holdReasonText({ code: "own_email_domain", domain: "acme.io" })).toBe(
      "Buyer's e-mail is on the reseller's own domain (acme.io)",
    );
  });
});

describe("held commissions", () => {
  test("an admin releases a held commission to pending or rejects it; nothing else is decided", () => {
    expect(decideHeldCommission("held", "release")).toBe("pending");
    expect(decideHeldCommission("held", "reject")).toBe("cancelled");
    for (const status of ["pending", "approved", "cancelled"] as const)
      expect(decideHeldCommission(status, "release"), status).toBeNull();
  });

  test("the decision schema", () => {
    expect(commissionDecisionSchema.parse({ decision: "release", note: "  known customer " })).toEqual({
      decision: "release",
      note: "known customer",
    });
    expect(commissionDecisionSchema.safeParse({ decision: "approve" }).success).toBe(false);
  });
});
