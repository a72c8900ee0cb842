import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const refundRoutes: FastifyPluginAsyncZod = async () => {};
