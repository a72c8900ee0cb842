import { useMutation } from "@tanstack/react-query";
import type { NewsletterInput } from "#domain/newsletter";
import { api } from "#web/lib/api";

export const subscribe = (input: NewsletterInput) =>
  api<{ subscribed: true }>("/newsletter", { method: "POST", body: input });

export function useSubscribe() {
  return useMutation({ mutationFn: subscribe });
}
