import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const manageProductRoutes: FastifyPluginAsyncZod = async () => {};
