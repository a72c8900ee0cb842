import { z } from "zod";

export const faqCategories = [
  "general",
  "sellers",
  "payments",
  "cryptocurrency",
  "licensing",
  "support",
] as const;
export type FaqCategory = (typeof faqCategories)[number];

export type FaqItem = {
  /** Stable kebab-case id: votes are stored against it. */
  id: string;
  question: string;
  answer: string;
  category: FaqCategory;
};

export const faqItems: FaqItem[] = [
  {
    id: "what-is-stackbay",
    category: "general",
    question: "What is Stackbay?",
    answer:
      "Stackbay is a business-to-business marketplace for technology: SaaS subscriptions, APIs and developer tools, hardware, software licenses and digital services. You compare vendors in one place, check out once and manage everything you bought from your dashboard. We are based in Dubai Silicon Oasis, UAE, and our support team works from India.",
  },
  {
    id: "display-currencies",
    category: "general",
    question: "Which currencies are prices shown in?",
    answer:
      "Every price is stored in US dollars. With the currency picker you can display prices in USD, AED, EUR, GBP or INR; anything other than USD is an approximation based on a recent exchange rate, meant to help you compare. What you are charged at checkout is always the USD amount.",
  },
  {
    id: "become-a-seller",
    category: "sellers",
    question: "How do I become a seller?",
    answer:
      "Apply on the Become a Partner page (/partner): tell us about your company and the products you want to list. With a seller account you manage listings, orders and refund requests from your dashboard, and choose where your payouts go: a Stripe account or a bank account. Our team reviews each new listing before it goes live.",
  },
  {
    id: "seller-refund-requests",
    category: "sellers",
    question: "What happens when a buyer asks me for a refund?",
    answer:
      "You will see the request in your dashboard and have 3 business days to respond: approve it, offer a fix, or explain why the order is not eligible. If you and the buyer cannot agree, the case goes to the Stackbay team, who review the order and make the final decision.",
  },
  {
    id: "payment-methods",
    category: "payments",
    question: "Which payment methods do you accept?",
    answer:
      "Checkout offers four ways to pay: by credit or debit card (the card page also offers Google Pay where your device supports it), with Apple Pay, with PayPal, or by bank transfer. Card and PayPal payments are confirmed as soon as the provider confirms them, usually within seconds. For a bank transfer you get our account details and a reference starting with SB-: the order is confirmed once the full amount reaches us, and an order not paid by its due date expires.",
  },
  {
    id: "payment-currencies",
    category: "payments",
    question: "Which currencies can I pay in?",
    answer:
      "You can pay from cards and accounts held in USD, EUR, GBP, CAD, AUD or JPY. These payment currencies are separate from the five display currencies (USD, AED, EUR, GBP and INR): prices are stored in USD, other display currencies are approximations, and every charge settles in USD. If your card or account uses another currency, your bank or card issuer converts the USD amount at its own rate, so your statement may differ slightly from the displayed price.",
  },
  {
    id: "refund-policy",
    category: "payments",
    question: "How do refunds work?",
    answer:
      "Open the order in your dashboard and request a refund, saying what went wrong. The seller responds within 3 business days. If the two of you cannot resolve it, the case is escalated to the Stackbay team for a decision. Approved refunds are paid back to your original payment method within 5 to 10 business days.",
  },
  {
    id: "crypto-payments",
    category: "cryptocurrency",
    question: "Can I pay with cryptocurrency?",
    answer:
      "Not at the moment. Checkout takes cards (with Apple Pay and, on the card page, Google Pay), PayPal and bank transfer, and every charge settles in US dollars.",
  },
  {
    id: "crypto-payouts",
    category: "cryptocurrency",
    question: "Are payouts made in crypto?",
    answer:
      "No. Payouts are made in US dollars to the Stripe account or bank account chosen in the dashboard.",
  },
  {
    id: "license-delivery",
    category: "licensing",
    question: "How do I receive my license keys?",
    answer:
      "License keys and access details are delivered to your dashboard as soon as your payment is confirmed. Open the order to copy a key or download the files; they stay available there whenever you need them again.",
  },
  {
    id: "license-terms",
    category: "licensing",
    question: "How many seats or devices does a license cover?",
    answer:
      "Each vendor sets its own license terms, such as the number of seats, devices or API calls, and whether a license is perpetual or a subscription. The product page lists these terms before you buy, and the same details are stored with the order in your dashboard.",
  },
  {
    id: "support-response-time",
    category: "support",
    question: "How quickly does support respond?",
    answer:
      "Our support team answers every message within 24 hours on business days. Write to us through the contact form and include your order number if your question is about a purchase, so we can help you faster.",
  },
];

export function isFaqId(id: string): boolean {
  return faqItems.some((item) => item.id === id);
}

/** Case-insensitive search over question, answer and category, as the FAQ page filters. */
export function searchFaq(
  items: readonly FaqItem[],
  text: string,
  category: FaqCategory | "all" = "all",
): FaqItem[] {
  const needle = text.trim().toLowerCase();
  return items.filter(
    (item) =>
      (category === "all" || item.category === category) &&
      (!needle || `${item.question} ${item.answer} ${item.category}`.toLowerCase().includes(needle)),
  );
}

export const faqVoteValues = ["helpful", "not_helpful"] as const;
export type FaqVote = (typeof faqVoteValues)[number];

/** `POST /api/faq/votes`: one visitor's vote; a second vote on the same question replaces the first. */
export const faqVoteSchema = z.object({
  questionId: z.string().min(1).max(100),
  vote: z.enum(faqVoteValues, { error: "Vote must be helpful or not_helpful" }),
});
export type FaqVoteInput = z.input<typeof faqVoteSchema>;

export const faqVoteTallySchema = z.object({
  helpful: z.number(),
  notHelpful: z.number(),
  mine: z.enum(faqVoteValues).nullable(),
});
export type FaqVoteTally = z.infer<typeof faqVoteTallySchema>;

/** Every question's tally; questions nobody has voted on may be missing. */
export const faqVotesSchema = z.object({ votes: z.record(z.string(), faqVoteTallySchema) });
export type FaqVotes = z.infer<typeof faqVotesSchema>;
