import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listUsers } from "#server/modules/users/repository";
import { updateUserAccess } from "#server/modules/users/service";

/** Super admins manage accounts: who sells, resells, administers, and who may sign in at all. */
export const userAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/users",
    {
      tags: ["admin"],
      summary: "Accounts, newest first, 25 a page; search over e-mail and names, filter by role",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => listUsers(db, request.query),
  );

  route(
    app,
    "PATCH /admin/users/:id",
    {
      tags: ["admin"],
      summary: "Grant or revoke seller, reseller, admin and super-admin rights; disable or enable",
      description:
        "Disabling signs the account out everywhere at once. The last active super admin cannot lose the role or be disabled (409 LAST_SUPER_ADMIN), and nobody can disable themselves (409 CANNOT_DISABLE_SELF).",
      onRequest: requireRole("superAdmin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const { user, sessionsEnded } = await updateUserAccess(db, me, request.params.id, request.body);
      request.log.info(
        { userId: user.id, change: request.body, sessionsEnded, by: me.id },
        "user access changed",
      );
      return { user };
    },
  );
};
