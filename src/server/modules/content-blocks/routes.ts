import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const contentBlockRoutes: FastifyPluginAsyncZod = async () => {};
