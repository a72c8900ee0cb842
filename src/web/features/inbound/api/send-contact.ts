import { useMutation } from "@tanstack/react-query";
import type { ContactInput } from "#domain/inbound";
import { api } from "#web/lib/api";

export const sendContact = (input: ContactInput) =>
  api<{ received: true }>("/contact", { method: "POST", body: input });

export function useSendContact() {
  return useMutation({ mutationFn: sendContact });
}
