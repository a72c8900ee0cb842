import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";

export const licenseRoutes: FastifyPluginAsyncZod = async () => {};
