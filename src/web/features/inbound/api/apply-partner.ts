import { useMutation } from "@tanstack/react-query";
import type { PartnerApplicationInput } from "#domain/inbound";
import { call } from "#web/lib/api";

export const applyPartner = (input: PartnerApplicationInput) =>
  call("POST /partner-applications", { body: input });

export function useApplyPartner() {
  return useMutation({ mutationFn: applyPartner });
}
