import { useMutation } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** Sends the payment reminder of a past-due renewal again, now: the buyer pays it, or fixes its method. */
export const sendReminder = (id: string) => call("POST /admin/subscriptions/:id/remind", { params: { id } });

/** Nothing on the page changes: the queue counts the renewal job's scheduled reminders, not this one. */
export function useSendReminder() {
  return useMutation({ mutationFn: sendReminder });
}
