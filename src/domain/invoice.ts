import { type Order, type PaymentStatus, paymentMethods } from "#domain/checkout";
import { isCurrencyCode } from "#domain/currency";
import { convertFromUsd, formatAmount, formatUsd, lineTotal, TAX_RATE } from "#domain/money";

/** The company that sells on every invoice: the platform's operator (see the privacy policy and terms). */
export const SELLER_OF_RECORD = {
  name: "Stackbay FZCO",
  addressLines: ["Dubai Silicon Oasis", "Dubai", "United Arab Emirates"],
} as const;

/** `INV-` and the first 8 characters of the order id, upper case: short, stable, one per order. */
export function invoiceNumber(orderId: string): string {
  return `INV-${orderId.slice(0, 8).toUpperCase()}`;
}

export type InvoiceLine = {
  productName: string;
  vendor: string;
  quantity: number;
  unitPrice: string;
  amount: string;
  refunded: boolean;
};

export type Invoice = {
  number: string;
  orderId: string;
  /** The order's date (ISO); the invoice is issued when the order is placed. */
  issuedAt: string;
  lines: InvoiceLine[];
  subtotal: string;
  taxLabel: string;
  tax: string;
  total: string;
  /** The display currency the buyer saw at checkout, with the rate used; null for USD. */
  display: { currency: string; rate: number; total: string; note: string } | null;
  paymentMethod: string;
  status: string;
  billTo: Order["customerInfo"];
};

/**
 * On an invoice a confirmed order reads "Paid"; refunds say so. Only a bank-transfer order awaiting its
 * money shows an invoice unpaid (with how to pay it).
 */
const statusLabels: Partial<Record<PaymentStatus, string>> = {
  processing: "Awaiting payment",
  mock_confirmed: "Paid",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

/** A rate as people read it: up to six decimals, no trailing zeros (0.9384, 3.6725). */
export function formatRate(rate: number): string {
  return rate.toLocaleString("en-US", { maximumFractionDigits: 6, useGrouping: false });
}

/**
 * The invoice of an order, every amount formatted: lines (unit price × quantity, exact to 1/10,000
 * USD), the order's own subtotal, 5% tax and total in USD (what was charged), and the display-currency
 * total at the rate recorded at checkout.
 */
export function buildInvoice(order: Order): Invoice {
  const currency = order.currency;
  const display =
    currency !== "USD" && isCurrencyCode(currency)
      ? {
          currency,
          rate: order.fxRate,
          total: formatAmount(
            convertFromUsd(order.totalAmount, currency, [
              { currencyCode: currency, rateToUsd: order.fxRate, fxBuffer: 0 },
            ]),
            currency,
          ),
        }
      : null;
  return {
    number: invoiceNumber(order.id),
    orderId: order.id,
    issuedAt: order.createdAt,
    lines: order.items.map((item) => ({
      productName: item.productName,
      vendor: item.vendor ?? "Unknown Vendor",
      quantity: item.quantity,
      unitPrice: formatUsd(item.price),
      amount: formatUsd(Number(lineTotal(item.price, item.quantity))),
      refunded: item.refundStatus === "refunded",
    })),
    subtotal: formatUsd(order.subtotal),
    taxLabel: `Tax (${TAX_RATE * 100}%)`,
    tax: formatUsd(order.tax),
    total: `${formatUsd(order.totalAmount)} USD`,
    display: display && {
      ...display,
      note: `Shown at checkout as ${display.total} at 1 USD = ${formatRate(display.rate)} ${currency}`,
    },
    paymentMethod: paymentMethods.find((m) => m.value === order.paymentMethod)?.label ?? order.paymentMethod,
    status: statusLabels[order.paymentStatus] ?? order.paymentStatus,
    billTo: order.customerInfo,
  };
}
