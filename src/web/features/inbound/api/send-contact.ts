import { useMutation } from "@tanstack/react-query";
import type { ContactInput } from "#domain/inbound";
import { call } from "#web/lib/api";

export const sendContact = (input: ContactInput) => call("POST /contact", { body: input });

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
