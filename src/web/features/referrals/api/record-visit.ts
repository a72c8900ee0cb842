import { useMutation } from "@tanstack/react-query";
import type { ReferralVisitAnswer, ReferralVisitInput } from "#domain/referrals";
import { api } from "#web/lib/api";

export const recordVisit = (input: ReferralVisitInput) =>
  api<ReferralVisitAnswer>("/referrals/visit", { method: "POST", body: input });

/** Reports a visit through a reseller link; the server counts the click and sets the attribution cookie. */
export function useRecordVisit() {
  return useMutation({ mutationFn: recordVisit });
}
