import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { message } from "#server/mail/templates";

export type RenewalMailInput = {
  fullName: string;
  productName: string;
  /** The renewal's total with tax, USD. */
  total: string;
  /** When the period it pays for starts. */
  dueAt: Date;
  /** When the subscription ends if it stays unpaid. */
  endsAt: Date;
  /** Where the buyer pays it: their renewal desk. */
  deskUrl: string;
  /** The saved method it is charged to ("Visa •••• 4242"); absent when the buyer pays it by hand. */
  method?: string | null;
};

const greeting = (name: string) => (name ? `Hi ${name},` : "Hi,");

/** Sent when a renewal is invoiced, a few days before it falls due. */
export function renewalDueMail(input: RenewalMailInput) {
  if (input.method)
    return {
      subject: `Your ${input.productName} subscription renews on ${formatDate(input.dueAt)}`,
      ...message(
        [
          greeting(input.fullName),
          `Your subscription to ${input.productName} renews on ${formatDate(input.dueAt)} for ${formatUsd(Number(input.total))} (USD, tax included).`,
          `We will charge it to your ${input.method} on that day; there is nothing for you to do. To use another payment method, or to cancel the renewal (you keep it until the end of the period you paid for), go to your subscriptions page.`,
        ],
        { label: "Manage the renewal", url: input.deskUrl },
      ),
    };
  return {
    subject: `Your ${input.productName} subscription renews on ${formatDate(input.dueAt)}`,
    ...message(
      [
        greeting(input.fullName),
        `Your subscription to ${input.productName} renews on ${formatDate(input.dueAt)} for ${formatUsd(Number(input.total))} (USD, tax included).`,
        "Pay it from your subscriptions page before then and nothing changes. If you no longer need it, cancel the renewal there: you keep it until the end of the period you paid for.",
      ],
      { label: "Pay or cancel the renewal", url: input.deskUrl },
    ),
  };
}

/** Sent on the retry days after a renewal fell due unpaid. */
export function renewalReminderMail(input: RenewalMailInput) {
  return {
    subject: `Payment due: your ${input.productName} subscription`,
    ...message(
      [
        greeting(input.fullName),
        `The renewal of ${input.productName} for ${formatUsd(Number(input.total))} (USD, tax included) was due on ${formatDate(input.dueAt)} and is not paid yet.`,
        `Your licences keep working until ${formatDate(input.endsAt)}. If the renewal is still unpaid then, the subscription ends.`,
      ],
      { label: "Pay now", url: input.deskUrl },
    ),
  };
}

/**
 * India's pre-debit notice (the RBI's e-mandate rule): sent before each recurring card charge of a buyer
 * billed in India; the charge waits at least 24 hours after it.
 */
export function preDebitNoticeMail(input: RenewalMailInput & { method: string; chargeAt: Date }) {
  return {
    subject: `Pre-debit notice: ${formatUsd(Number(input.total))} for ${input.productName} on ${formatDate(input.chargeAt)}`,
    ...message(
      [
        greeting(input.fullName),
        `This is a notice of an upcoming recurring charge under your standing instruction: ${formatUsd(Number(input.total))} (USD, tax included) to your ${input.method}, on or after ${formatDate(input.chargeAt)}, for the renewal of ${input.productName}.`,
        "To stop it, cancel the renewal or choose another payment method from your subscriptions page before then.",
      ],
      { label: "Manage the renewal", url: input.deskUrl },
    ),
  };
}

/**
 * Sent when a renewal's charge was refused for good (a lost or stolen card, a closed account): no more
 * retries on that method; the buyer pays now or chooses another one.
 */
export function chargeDeclinedMail(input: RenewalMailInput & { method: string; reason: string }) {
  return {
    subject: `Action needed: the renewal of ${input.productName} was declined`,
    ...message(
      [
        greeting(input.fullName),
        `We tried to charge ${formatUsd(Number(input.total))} (USD, tax included) for ${input.productName} to your ${input.method}, and it was declined: ${input.reason}`,
        `We will not try that payment method again. Your licences keep working until ${formatDate(input.endsAt)}; pay the renewal now or add another payment method before then, or the subscription ends.`,
      ],
      { label: "Update payment method or pay now", url: input.deskUrl },
    ),
  };
}

/** What the final bill of an ended metered subscription's use says (decision 0029). */
export type FinalUsageMailInput = Omit<RenewalMailInput, "dueAt" | "endsAt">;

/** Sent when the use of an ended metered subscription's last period is billed, an hour after its end. */
export function finalUsageBillMail(input: FinalUsageMailInput) {
  return {
    subject: `Your last bill for ${input.productName}`,
    ...message(
      [
        greeting(input.fullName),
        `Your subscription to ${input.productName} has ended. The use of its last period comes to ${formatUsd(Number(input.total))} (USD, tax included); nothing else will be billed.`,
        input.method
          ? `We will charge it to your ${input.method}; there is nothing for you to do.`
          : "Please pay it from your subscriptions page.",
      ],
      { label: input.method ? "See the bill" : "Pay now", url: input.deskUrl },
    ),
  };
}

/** Sent on the retry days while the final bill of an ended metered subscription's use is unpaid. */
export function finalUsageReminderMail(input: FinalUsageMailInput) {
  return {
    subject: `Payment due: your last bill for ${input.productName}`,
    ...message(
      [
        greeting(input.fullName),
        `The last bill of ${input.productName}, ${formatUsd(Number(input.total))} (USD, tax included) for the use of its final period, is not paid yet.`,
        "Pay it from your subscriptions page, or add a payment method there and we will charge it.",
      ],
      { label: "Pay now", url: input.deskUrl },
    ),
  };
}

/** Sent when the charge of a final bill was declined for good. */
export function finalUsageDeclinedMail(input: FinalUsageMailInput & { method: string; reason: string }) {
  return {
    subject: `Action needed: the last bill of ${input.productName} was declined`,
    ...message(
      [
        greeting(input.fullName),
        `We tried to charge ${formatUsd(Number(input.total))} (USD, tax included) for the use of ${input.productName}'s final period to your ${input.method}, and it was declined: ${input.reason}`,
        "We will not try that payment method again. Please pay the bill from your subscriptions page.",
      ],
      { label: "Pay now", url: input.deskUrl },
    ),
  };
}

/** Sent when a subscription ends because its renewal stayed unpaid. */
export function subscriptionEndedMail(input: Omit<RenewalMailInput, "total" | "endsAt">) {
  return {
    subject: `Your ${input.productName} subscription has ended`,
    ...message(
      [
        greeting(input.fullName),
        `The renewal of ${input.productName} that fell due on ${formatDate(input.dueAt)} was not paid, so the subscription has ended and its licence keys no longer work.`,
        "You can buy it again at any time to start a new subscription.",
      ],
      { label: "See your subscriptions", url: input.deskUrl },
    ),
  };
}

/** Sent when the seller of a subscription's product leaves Stackbay: it runs to its period's end, then stops. */
export function sellerLeftMail(input: {
  fullName: string;
  productName: string;
  /** The end of the period paid for: it works until then. */
  endsAt: Date;
  /** Whether a renewal waiting for payment was cancelled. */
  renewalCancelled: boolean;
  deskUrl: string;
}) {
  return {
    subject: `Your ${input.productName} subscription will not renew`,
    ...message(
      [
        greeting(input.fullName),
        `The seller of ${input.productName} has closed their Stackbay account, so your subscription will not renew. It keeps working until ${formatDate(input.endsAt)}, the end of the period you paid for.`,
        ...(input.renewalCancelled
          ? ["The renewal that was waiting for payment has been cancelled: nothing more is due for it."]
          : []),
      ],
      { label: "See your subscriptions", url: input.deskUrl },
    ),
  };
}

/** Sent when an admin ends a subscription: it is over now, its keys stop working. */
export function subscriptionCancelledMail(input: {
  fullName: string;
  productName: string;
  /** Whether a renewal waiting for payment was cancelled with it. */
  renewalCancelled: boolean;
  /** Whether it had licence keys, which now stop working. */
  hadLicenses: boolean;
  contactUrl: string;
}) {
  return {
    subject: `Your ${input.productName} subscription has been cancelled`,
    ...message(
      [
        greeting(input.fullName),
        `Stackbay has cancelled your subscription to ${input.productName}. It will not renew${input.hadLicenses ? ", and its licence keys no longer work" : ""}.`,
        ...(input.renewalCancelled
          ? ["The renewal that was waiting for payment has been cancelled too: nothing more is due for it."]
          : []),
        "If you did not expect this, please contact us.",
      ],
      { label: "Contact Stackbay", url: input.contactUrl },
    ),
  };
}

/**
 * Sent when a seller or an admin changes the price of a plan a subscription is on: the old and new
 * price of one period, and the first renewal charged at the new one, after the notice the law and the
 * terms ask for (7 days for a monthly plan, 30 for a yearly one).
 */
export function priceChangeNoticeMail(input: {
  fullName: string;
  productName: string;
  planName: string;
  /** One period's price before and after, USD before tax. */
  oldPrice: string;
  newPrice: string;
  /** The first renewal at the new price. */
  from: Date;
  deskUrl: string;
}) {
  const rose = Number(input.newPrice) > Number(input.oldPrice);
  return {
    subject: `The price of ${input.productName} changes on ${formatDate(input.from)}`,
    ...message(
      [
        greeting(input.fullName),
        `The price of your ${input.productName} subscription (${input.planName} plan) changes from ${formatUsd(Number(input.oldPrice))} to ${formatUsd(Number(input.newPrice))} per period (USD, before tax), starting with the renewal on ${formatDate(input.from)}.`,
        rose
          ? "Renewals before that date keep the current price. If you would rather not continue at the new price, cancel the renewal from your subscriptions page before then: you keep it until the end of the period you paid for."
          : "Renewals before that date keep the current price; nothing else changes.",
      ],
      { label: "See your subscriptions", url: input.deskUrl },
    ),
  };
}

/** Sent 30 and 7 days before a yearly subscription renews, so a company can plan the payment or cancel. */
export function yearlyRenewalNoticeMail(input: Omit<RenewalMailInput, "endsAt">) {
  return {
    subject: `Reminder: ${input.productName} renews on ${formatDate(input.dueAt)}`,
    ...message(
      [
        greeting(input.fullName),
        `Your yearly subscription to ${input.productName} renews on ${formatDate(input.dueAt)} for ${formatUsd(Number(input.total))} (USD, tax included).`,
        "Nothing is needed from you if you want to keep it: its invoice comes two weeks before that date. To stop it, cancel the renewal from your subscriptions page before then; you keep it until the end of the year you paid for.",
      ],
      { label: "See your subscriptions", url: input.deskUrl },
    ),
  };
}
