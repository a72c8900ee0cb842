import { message } from "#server/mail/templates";

/** To the support team: a message sent through the contact form, answerable by replying. */
export function contactMail(input: {
  reference: string;
  name: string;
  email: string;
  subject: string;
  message: string;
}) {
  return {
    subject: `[Contact] ${input.subject} from ${input.name}`,
    ...message([
      `New message through the contact form (reference ${input.reference}).`,
      `From: ${input.name} <${input.email}>\nSubject: ${input.subject}`,
      input.message,
    ]),
  };
}

/** To someone who applied to sell: the application arrived, and when to expect an answer. */
export function partnerApplicationMail(input: {
  reference: string;
  contactPerson: string;
  companyName: string;
}) {
  return {
    subject: "We received your application to sell on Stackbay",
    ...message([
      `Hello ${input.contactPerson},`,
      `Thank you for applying to sell ${input.companyName}'s products on Stackbay. Our partner team reviews every application and will get back to you within 5 business days.`,
      `Your reference: ${input.reference}`,
    ]),
  };
}

/** To an address given to the newsletter form: confirm it, or stop every mail from us. */
export function newsletterConfirmMail(input: { confirmUrl: string; unsubscribeUrl: string }) {
  return {
    subject: "Confirm your Stackbay newsletter subscription",
    ...message(
      [
        "Please confirm that you want Stackbay's deals and product news at this address.",
        `If you did not ask for this, ignore this message. To stop any mail from us: ${input.unsubscribeUrl}`,
      ],
      { label: "Confirm subscription", url: input.confirmUrl },
    ),
  };
}
