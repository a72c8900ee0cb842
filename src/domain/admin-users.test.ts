import { describe, expect, test } from "vitest";
import { adminUsersQuery, adminUserUpdateSchema, describeUserUpdate } from "#domain/admin-users";

describe("adminUserUpdateSchema", () => {
  test("keeps the role flags and disabled; silently drops every other key", () => {
    expect(
      adminUserUpdateSchema.parse({
        isSeller: true,
        disabled: false,
        isBuyer: false,
        banned: true,
        email: "someone@else.example",
        id: "another-user",
      }),
    ).toEqual({ isSeller: true, disabled: false });
  });

  test("refuses a body with nothing to change and values that are not booleans", () => {
    expect(adminUserUpdateSchema.safeParse({}).success).toBe(false);
    expect(adminUserUpdateSchema.safeParse({ isBuyer: false }).error?.issues[0]?.message).toBe(
      "Nothing to change: send isSeller, isReseller, isAdmin, isSuperAdmin or disabled.",
    );
    expect(adminUserUpdateSchema.safeParse({ isAdmin: "true" }).error?.issues[0]?.message).toBe(
      "isAdmin must be true or false",
    );
  });
});

describe("adminUsersQuery", () => {
  test("trims the search, checks the role, defaults the page", () => {
    expect(adminUsersQuery.parse({ search: "  ana ", role: "superAdmin" })).toEqual({
      search: "ana",
      role: "superAdmin",
      page: 1,
    });
    expect(adminUsersQuery.safeParse({ role: "owner" }).success).toBe(false);
  });
});

describe("describeUserUpdate", () => {
  test("names each change", () => {
    expect(describeUserUpdate({ isSeller: true })).toBe("Seller granted");
    expect(describeUserUpdate({ isAdmin: false, isSuperAdmin: true, disabled: true })).toBe(
      "Admin revoked, Super admin granted, account disabled",
    );
    expect(describeUserUpdate({ disabled: false })).toBe("Account enabled");
  });
});
