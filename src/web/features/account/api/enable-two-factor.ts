import { useMutation } from "@tanstack/react-query";
import type { PasswordConfirmInput } from "#domain/accounts";
import { api } from "#web/lib/api";

/** What the authenticator app needs; two-factor is on only once a code from it is confirmed. */
export type TwoFactorSetup = {
  totpURI: string;
  secret: string;
  qrCodeSvg: string;
  backupCodes: string[];
};

export const enableTwoFactor = (input: PasswordConfirmInput) =>
  api<TwoFactorSetup>("/me/two-factor/enable", { method: "POST", body: input });

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
