import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const userAdminRoutes: FastifyPluginAsyncZod = async () => {};
