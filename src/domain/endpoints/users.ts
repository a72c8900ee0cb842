import { z } from "zod";
import {
  adminUserListSchema,
  adminUserSchema,
  adminUsersQuery,
  adminUserUpdateSchema,
} from "#domain/admin-users";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `users` module (`src/server/modules/users/routes.ts`). */
export const usersEndpoints = {
  "GET /admin/users": endpoint({ query: adminUsersQuery, answer: adminUserListSchema, errors: [] }),
  "PATCH /admin/users/:id": endpoint({
    params: z.object({ id: z.string().min(1).max(100) }),
    body: adminUserUpdateSchema,
    answer: z.object({ user: adminUserSchema }),
    errors: ["CANNOT_DISABLE_SELF", "LAST_SUPER_ADMIN", "SUPER_ADMIN_REQUIRED", "USER_NOT_FOUND"],
  }),
} as const;
