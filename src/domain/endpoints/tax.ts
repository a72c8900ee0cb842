import { endpoint } from "#domain/endpoint";
import {
  adminTaxRatesSchema,
  effectiveTaxRatesSchema,
  taxJurisdictionParams,
  taxRateInputSchema,
  vatCheckAnswerSchema,
  vatCheckBodySchema,
} from "#domain/tax";

/** What the web calls of the server's `tax` module (`src/server/modules/tax/routes.ts`). */
export const taxEndpoints = {
  "DELETE /admin/tax-rates/:jurisdiction": endpoint({
    params: taxJurisdictionParams,
    answer: adminTaxRatesSchema,
    errors: [],
  }),
  "GET /admin/tax-rates": endpoint({ answer: adminTaxRatesSchema, errors: [] }),
  "GET /tax/rates": endpoint({ answer: effectiveTaxRatesSchema, errors: [] }),
  "POST /tax/vat-check": endpoint({ body: vatCheckBodySchema, answer: vatCheckAnswerSchema, errors: [] }),
  "PUT /admin/tax-rates/:jurisdiction": endpoint({
    params: taxJurisdictionParams,
    body: taxRateInputSchema,
    answer: adminTaxRatesSchema,
    errors: [],
  }),
} as const;
