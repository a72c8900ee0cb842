import { useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** What VIES (EU) or HMRC (UK) says about a business buyer's VAT number; the checkout's summary asks. */
export const checkVatNumber = (country: string, taxId: string) =>
  call("POST /tax/vat-check", { body: { country, taxId } });

/**
 * The register's answer for a well-formed VAT number (null asks nothing). Kept ten minutes: the server
 * keeps a confirmation a day, and asks again after an answer that was not one.
 */
export function useVatCheck(country: string | null, vatNumber: string | null) {
  return useQuery({
    queryKey: ["vat-check", country, vatNumber],
    queryFn: () => checkVatNumber(country ?? "", vatNumber ?? ""),
    enabled: country !== null && vatNumber !== null,
    staleTime: 10 * 60_000,
    retry: false,
  });
}
