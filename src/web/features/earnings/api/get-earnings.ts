import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every earnings query, for reloading them together. */
export const earningsKey = ["earnings"] as const;

/** Where the browser downloads the seller's sales as CSV (a plain link: the session cookie goes along). */
export const salesCsvUrl = "/api/earnings/sales.csv";

export const getEarnings = () => call("GET /earnings");
export const getSales = (page: number) => call("GET /earnings/sales", { query: { page } });
export const getPayouts = (page: number) => call("GET /earnings/payouts", { query: { page } });
export const getSellerStats = () => call("GET /earnings/stats");

/** Balances per earning role, the payout minimum and the last 12 months. */
export function useEarnings(enabled = true) {
  return useQuery(queryOptions({ queryKey: [...earningsKey, "overview"], queryFn: getEarnings, enabled }));
}

export function useSales(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...earningsKey, "sales", { page }],
      queryFn: () => getSales(page),
      placeholderData: keepPreviousData,
    }),
  );
}

export function usePayouts(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...earningsKey, "payouts", { page }],
      queryFn: () => getPayouts(page),
      placeholderData: keepPreviousData,
    }),
  );
}

/** The seller's dashboard figures; only asked for sellers (anyone else gets 403). */
export function useSellerStats(enabled: boolean) {
  return useQuery(queryOptions({ queryKey: [...earningsKey, "stats"], queryFn: getSellerStats, enabled }));
}
