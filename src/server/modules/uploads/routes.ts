import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const uploadRoutes: FastifyPluginAsyncZod = async () => {};
