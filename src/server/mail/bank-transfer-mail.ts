import type { BankDetails } from "#domain/bank-transfer";
import { formatDate } from "#domain/dates";
import { formatUsd } from "#domain/money";
import { message } from "#server/mail/templates";

export type BankTransferMailInput = {
  orderId: string;
  fullName: string;
  reference: string;
  /** 4-place decimal USD, whole cents. */
  amountDue: string;
  dueAt: Date;
  details: BankDetails;
  /** The return page of the order, where the instructions and what was received are shown. */
  orderUrl: string;
};

/** The account lines a buyer copies into their bank's form; India's domestic pair when configured. */
export function bankDetailLines(details: BankDetails): string[] {
  return [
    `Account name: ${details.accountName}`,
    `Bank: ${details.bankName}`,
    `IBAN: ${details.iban}`,
    `SWIFT/BIC: ${details.swift}`,
    ...(details.accountNumber ? [`Account number: ${details.accountNumber}`] : []),
    ...(details.ifsc ? [`IFSC: ${details.ifsc}`] : []),
  ];
}

/** Sent when a bank-transfer order is placed (and placed again after it expired): how to pay it. */
export function bankTransferInstructionsMail(input: BankTransferMailInput) {
  const amount = formatUsd(Number(input.amountDue));
  const shortId = input.orderId.slice(0, 8).toUpperCase();
  return {
    subject: `Pay order ${shortId} by bank transfer: reference ${input.reference}`,
    ...message(
      [
        input.fullName ? `Hi ${input.fullName},` : "Hi,",
        ...(input.details.demo
          ? ["Test mode: these are demo bank details. Do not send money to them; no real payment is taken."]
          : []),
        `Thank you for your order ${shortId}. To pay it, transfer ${amount} (USD) to the account below with the reference ${input.reference}, so we can match your payment to your order.`,
        bankDetailLines(input.details).join("\n"),
        `Reference: ${input.reference}`,
        `Please pay by ${formatDate(input.dueAt)}. An order not paid in full by then expires; you can place it again from your order page.`,
        "We confirm your order and send your license keys as soon as the full amount reaches us, usually one to three business days after you send it. If you send less, we tell you what is still to pay; if you send more, the difference is returned to you.",
      ],
      { label: "See your order", url: input.orderUrl },
    ),
  };
}
