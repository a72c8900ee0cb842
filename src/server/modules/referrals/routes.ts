import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const referralRoutes: FastifyPluginAsyncZod = async () => {};
