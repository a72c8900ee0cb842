import { useMutation } from "@tanstack/react-query";
import type { PasswordConfirmInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** What the authenticator app needs; two-factor is on only once a code from it is confirmed. */
export type TwoFactorSetup = {
  totpURI: string;
  secret: string;
  qrCodeSvg: string;
  backupCodes: string[];
};

export const enableTwoFactor = (input: PasswordConfirmInput) =>
  call("POST /me/two-factor/enable", { body: input });

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
