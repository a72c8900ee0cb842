import { useMutation } from "@tanstack/react-query";
import type { ChangePasswordInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** 204 on success; the server ends the user's other sessions. */
export const changePassword = (input: ChangePasswordInput) => call("POST /me/password", { body: input });

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
