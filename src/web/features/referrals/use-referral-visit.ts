import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { REFERRAL_PARAM } from "#domain/routes";
import { useRecordVisit } from "#web/features/referrals/api/record-visit";

/** Visits already reported in this page load, so StrictMode, re-renders and back-navigation report once. */
const reported = new Set<string>();

/**
 * On a product page opened through a reseller link (`?ref=CODE`), reports the visit once per code and
 * product per page load. Referral tracking must never disturb shopping: a malformed code is not sent
 * and a failed report is dropped without a message.
 */
export function useReferralVisit(productId: string) {
  const [search] = useSearchParams();
  const code = search.get(REFERRAL_PARAM);
  const { mutate } = useRecordVisit();
  useEffect(() => {
    if (!code) return;
    // The schema (and zod) load only for a visit through a reseller link, not for every product page.
    void import("#domain/referrals").then(({ referralVisitSchema }) => {
      const visit = referralVisitSchema.safeParse({ code, productId });
      if (!visit.success) return;
      const key = `${visit.data.code}:${productId}`;
      if (reported.has(key)) return;
      reported.add(key);
      mutate(visit.data);
    });
  }, [code, productId, mutate]);
}
