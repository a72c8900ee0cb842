import { useMutation } from "@tanstack/react-query";
import type { ReferralVisitInput } from "#domain/referrals";
import { call } from "#web/lib/api";

export const recordVisit = (input: ReferralVisitInput) => call("POST /referrals/visit", { body: input });

/** Reports a visit through a reseller link; the server counts the click and sets the attribution cookie. */
export function useRecordVisit() {
  return useMutation({ mutationFn: recordVisit });
}
