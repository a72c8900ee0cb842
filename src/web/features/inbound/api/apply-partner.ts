import { useMutation } from "@tanstack/react-query";
import type { PartnerApplicationInput } from "#domain/inbound";
import { api } from "#web/lib/api";

export const applyPartner = (input: PartnerApplicationInput) =>
  api<{ received: true }>("/partner-applications", { method: "POST", body: input });

export function useApplyPartner() {
  return useMutation({ mutationFn: applyPartner });
}
