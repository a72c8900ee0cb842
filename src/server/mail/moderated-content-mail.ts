import { greeting, message } from "#server/mail/templates";

type Link = { label: string; url: string };

/** An admin hid or restored someone's writing on a product page, and said why. */
type StatusChange = {
  firstName: string | null;
  productName: string;
  to: "hidden" | "published";
  reason: string;
  link: Link;
};

/** To a review's author when an admin hides or restores it, with the admin's reason. */
export function reviewStatusMail(input: StatusChange) {
  const { productName, reason, link } = input;
  return input.to === "hidden"
    ? {
        subject: `Your review of ${productName} has been hidden`,
        ...message(
          [
            greeting(input.firstName),
            `Our team has hidden your review of ${productName}, so it no longer shows on the product page or counts toward its rating.`,
            `Reason: ${reason}`,
          ],
          link,
        ),
      }
    : {
        subject: `Your review of ${productName} is visible again`,
        ...message(
          [
            greeting(input.firstName),
            `Our team has restored your review of ${productName}; it shows on the product page again.`,
            `Note: ${reason}`,
          ],
          link,
        ),
      };
}

/** To a question's asker when the seller or an admin answers it. */
export function questionAnsweredMail(input: {
  firstName: string | null;
  productName: string;
  answer: string;
  link: Link;
}) {
  return {
    subject: `Your question about ${input.productName} has an answer`,
    ...message(
      [
        greeting(input.firstName),
        `Your question about ${input.productName} has been answered.`,
        `Answer: ${input.answer}`,
      ],
      input.link,
    ),
  };
}

/** To a question's asker when an admin hides or restores it, with the admin's reason. */
export function questionStatusMail(input: StatusChange) {
  const { productName, reason, link } = input;
  return input.to === "hidden"
    ? {
        subject: `Your question about ${productName} has been hidden`,
        ...message(
          [
            greeting(input.firstName),
            `Our team has hidden your question about ${productName}, so it no longer shows on the product page.`,
            `Reason: ${reason}`,
          ],
          link,
        ),
      }
    : {
        subject: `Your question about ${productName} is visible again`,
        ...message(
          [
            greeting(input.firstName),
            `Our team has restored your question about ${productName}.`,
            `Note: ${reason}`,
          ],
          link,
        ),
      };
}
