import { message } from "#server/mail/templates";

/** To the buyer when the seller hands an item to the carrier: what, with whom, and how to follow it. */
export function shippedMail(input: {
  name: string;
  orderId: string;
  productName: string;
  quantity: number;
  carrier: string;
  trackingNumber: string;
  confirmDays: number;
  link: { label: string; url: string };
}) {
  const order = input.orderId.slice(0, 8).toUpperCase();
  const what = input.quantity > 1 ? `${input.quantity} × ${input.productName}` : input.productName;
  return {
    subject: `${input.productName} from order ${order} has shipped`,
    ...message(
      [
        input.name ? `Hi ${input.name},` : "Hi,",
        `${what} from your order ${order} is on its way.`,
        `Carrier: ${input.carrier}\nTracking number: ${input.trackingNumber}`,
        `When it arrives, confirm delivery on your order page. If you don't, it counts as delivered ${input.confirmDays} days after shipping.`,
      ],
      input.link,
    ),
  };
}
