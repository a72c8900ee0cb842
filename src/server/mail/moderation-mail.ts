import { message } from "#server/mail/templates";

/** To the seller when an admin rejects their listing: the reason, and where to fix and resubmit it. */
export function listingRejectedMail(input: {
  firstName: string;
  productName: string;
  reason: string;
  editUrl: string;
}) {
  return {
    subject: `Your listing "${input.productName}" needs changes`,
    ...message(
      [
        input.firstName ? `Hi ${input.firstName},` : "Hi,",
        `An admin reviewed your listing "${input.productName}" and could not publish it yet. The reason:`,
        input.reason,
        "Fix the listing and save it: it goes back to the review queue, and you will see its state in your products list.",
      ],
      { label: "Edit the listing", url: input.editUrl },
    ),
  };
}
