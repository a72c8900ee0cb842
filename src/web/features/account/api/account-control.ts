import { useMutation } from "@tanstack/react-query";
import type { DeleteAccountInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** "Download my data": a plain link, so the browser saves the attachment with the session cookie. */
export const accountExportUrl = "/api/me/export";

export const deleteAccount = (input: DeleteAccountInput) => call("DELETE /me", { body: input });

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
