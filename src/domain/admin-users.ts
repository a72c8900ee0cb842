import { z } from "zod";
import { paged, pageNumber } from "#domain/paging";

/** Super admins' user list: 25 accounts a page, newest first. */
export const ADMIN_USERS_PAGE_SIZE = 25;

export const userRoleFilters = [
  { value: "seller", label: "Sellers" },
  { value: "reseller", label: "Resellers" },
  { value: "admin", label: "Admins" },
  { value: "superAdmin", label: "Super admins" },
  { value: "disabled", label: "Disabled" },
] as const;
export type UserRoleFilter = (typeof userRoleFilters)[number]["value"];

export const adminUsersQuery = z.object({
  search: z.string().trim().max(200, "Search must be at most 200 characters").optional(),
  role: z
    .enum(userRoleFilters.map((f) => f.value) as [UserRoleFilter, ...UserRoleFilter[]], {
      error: "Role must be seller, reseller, admin, superAdmin or disabled",
    })
    .optional(),
  page: pageNumber,
});
export type AdminUsersQuery = z.input<typeof adminUsersQuery>;

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailVerified: z.boolean(),
  isBuyer: z.boolean(),
  isSeller: z.boolean(),
  isReseller: z.boolean(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
  /** A seller whose listings go public without review (decision 0013); set through its own route. */
  isTrustedSeller: z.boolean(),
  /** The account cannot sign in (stored as better-auth's `banned`). */
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = paged(adminUserSchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;

/** The flags a super admin may change, in the order the screen shows them. */
export const editableRoles = [
  { key: "isSeller", label: "Seller" },
  { key: "isReseller", label: "Reseller" },
  { key: "isAdmin", label: "Admin" },
  { key: "isSuperAdmin", label: "Super admin" },
] as const;
export type EditableRole = (typeof editableRoles)[number]["key"];

/**
 * Any of the role flags and the disabled state. Other keys (isBuyer, email, banned...) are dropped, so
 * a body can never set what this screen does not offer; a body with nothing left is refused.
 */
export const adminUserUpdateSchema = z
  .object({
    isSeller: z.boolean({ error: "isSeller must be true or false" }).optional(),
    isReseller: z.boolean({ error: "isReseller must be true or false" }).optional(),
    isAdmin: z.boolean({ error: "isAdmin must be true or false" }).optional(),
    isSuperAdmin: z.boolean({ error: "isSuperAdmin must be true or false" }).optional(),
    disabled: z.boolean({ error: "disabled must be true or false" }).optional(),
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    message: "Nothing to change: send isSeller, isReseller, isAdmin, isSuperAdmin or disabled.",
  });
export type AdminUserUpdate = z.infer<typeof adminUserUpdateSchema>;

/** "Seller granted, Admin revoked, account disabled" for a toast or a log line. */
export function describeUserUpdate(patch: AdminUserUpdate): string {
  const parts: string[] = editableRoles
    .filter(({ key }) => patch[key] !== undefined)
    .map(({ key, label }) => `${label} ${patch[key] ? "granted" : "revoked"}`);
  if (patch.disabled !== undefined) parts.push(patch.disabled ? "account disabled" : "account enabled");
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
