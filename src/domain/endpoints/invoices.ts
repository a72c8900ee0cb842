import { z } from "zod";
import { endpoint } from "#domain/endpoint";

/** The server's `invoices` module (`src/server/modules/invoices/routes.ts`): a download opened as a link. */
export const invoicesExternalEndpoints = {
  "GET /orders/:id/invoice.html": endpoint({
    params: z.object({ id: z.uuid("Unknown order") }),
    answer: { file: "text/html; charset=utf-8" },
    errors: ["INVOICE_NOT_AVAILABLE", "ORDER_NOT_FOUND"],
  }),
} as const;
