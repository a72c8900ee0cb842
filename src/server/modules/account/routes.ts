import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";

const meSchema = z.object({
  user: z
    .object({
      id: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      roles: z.object({
        isBuyer: z.boolean(),
        isSeller: z.boolean(),
        isReseller: z.boolean(),
        isAdmin: z.boolean(),
        isSuperAdmin: z.boolean(),
      }),
    })
    .nullable(),
});

/**
 * The signed-in user and their roles, or `user: null` for a visitor. Sessions arrive with the accounts
 * module (better-auth); until it is mounted nobody can sign in, so every caller is a visitor.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    "/me",
    {
      schema: {
        tags: ["account"],
        summary: "The current user and their role flags",
        response: { 200: meSchema },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "private, no-store");
      return { user: null };
    },
  );
};
