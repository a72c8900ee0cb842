import { useMutation } from "@tanstack/react-query";
import type { NewsletterInput } from "#domain/newsletter";
import { call } from "#web/lib/api";

export const subscribe = (input: NewsletterInput) => call("POST /newsletter", { body: input });

export function useSubscribe() {
  return useMutation({ mutationFn: subscribe });
}
