import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const systemRoutes: FastifyPluginAsyncZod = async () => {};
