import { message } from "#server/mail/templates";

/**
 * The e-mail of an in-app notification (`modules/notifications`): the same title and words as the
 * list shows, and a button to where the reader acts.
 */
export function notificationMail(input: {
  firstName: string;
  title: string;
  /** Paragraphs separated by a blank line. */
  body: string;
  action: { label: string; url: string };
}) {
  return {
    subject: input.title,
    ...message(
      [input.firstName ? `Hi ${input.firstName},` : "Hi,", ...input.body.split("\n\n")],
      input.action,
    ),
  };
}
