import { useMutation } from "@tanstack/react-query";
import type { TrustedSellerAnswer } from "#domain/moderation";
import { api } from "#web/lib/api";

export const trustSeller = ({ userId, trusted }: { userId: string; trusted: boolean }) =>
  api<TrustedSellerAnswer>(`/admin/users/${encodeURIComponent(userId)}/trusted-seller`, {
    method: "PUT",
    body: { trusted },
  });

/** An admin marks a seller trusted (or not): their later listings skip the queue. */
export function useTrustSeller() {
  return useMutation({ mutationFn: trustSeller });
}
