import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const pageRoutes: FastifyPluginAsyncZod = async () => {};
