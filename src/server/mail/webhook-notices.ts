import type { NotificationInput } from "#domain/notifications";
import { paths } from "#domain/routes";

/** To the seller: an endpoint that failed for `days` days was turned off. */
export function webhookDisabledNotice(url: string, days: number): NotificationInput {
  return {
    kind: "webhook_disabled",
    title: "A webhook endpoint was turned off",
    body: [
      `Every delivery to ${url} has failed for ${days} days, so Stackbay turned the endpoint off and stopped sending to it.`,
      "Fix the receiver, then turn the endpoint back on from your dashboard; you can replay the deliveries it missed.",
    ],
    link: paths.dashboard("webhooks"),
    action: "View your webhooks",
  };
}
