import { type Order, type PaymentStatus, paymentMethods } from "#domain/checkout";
import { countryName } from "#domain/countries";
import { isCurrencyCode } from "#domain/currency";
import { formatOwed, formatPrice, formatUsd, lineTotal } from "#domain/money";
import { taxLineLabel, vatCheckLine } from "#domain/tax";
import { taxIdFieldFor } from "#domain/tax-ids";

/**
 * The company that sells on every invoice: the platform's operator (see the privacy policy and terms),
 * merchant of record: it charges the buyer and remits the tax. Its UAE tax registration (TRN) is the
 * server's OPERATOR_TRN, passed to `buildInvoice`.
 */
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
  /** "India GST (18%)", "UAE VAT (5%)", "Reverse charge" or "No tax (0%)". */
  taxLabel: string;
  tax: string;
  /** The reverse-charge wording, or why no tax was charged. */
  taxNote: string | null;
  total: string;
  /** The operator's tax registration number. */
  sellerTrn: string;
  /** A business buyer's company and tax ID, as given at checkout. */
  buyerCompany: string | null;
  /** `check`: what the register (VIES, HMRC) said about a VAT number at checkout (`vatCheckLine`). */
  buyerTaxId: { label: string; value: string; check: string | null } | null;
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
 * The invoice of an order, every amount formatted as owed (`formatOwed`): lines (unit price with the
 * pricing unit it was bought in × quantity, exact to 1/10,000 USD), the order's own subtotal, tax (as decided at checkout: label, rate, note) and total in USD
 * (what was charged), and the display-currency total at the rate recorded at checkout. Orders from
 * before the buyer's country was asked read as UAE VAT at 5%, as they were charged (the columns' default).
 */
export function buildInvoice(order: Order, seller: { trn: string }): Invoice {
  const currency = order.currency;
  const display =
    currency !== "USD" && isCurrencyCode(currency)
      ? {
          currency,
          rate: order.fxRate,
          total: formatOwed(order.totalAmount, currency, [
            { currencyCode: currency, rateToUsd: order.fxRate, fxBuffer: 0 },
          ]),
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
      unitPrice: formatPrice(item.price, "USD", [], {
        productName: item.productName,
        unit: item.pricingUnit,
        exact: true,
      }),
      amount: formatUsd(Number(lineTotal(item.price, item.quantity))),
      refunded: item.refundStatus === "refunded",
    })),
    subtotal: formatUsd(order.subtotal),
    taxLabel: taxLineLabel({
      label: order.taxLabel,
      rate: order.taxRate,
      reverseCharge: order.reverseCharge,
    }),
    tax: formatUsd(order.tax),
    taxNote: order.taxNote,
    sellerTrn: seller.trn,
    buyerCompany: order.buyerCompany,
    buyerTaxId: order.buyerTaxId
      ? {
          label: (order.buyerCountry && taxIdFieldFor(order.buyerCountry)?.label) || "Tax ID",
          value: order.buyerTaxId,
          check: order.vatCheck ? vatCheckLine(order.vatCheck) : null,
        }
      : null,
    total: `${formatUsd(order.totalAmount)} USD`,
    display: display && {
      ...display,
      note: `Shown at checkout as ${display.total} at 1 USD = ${formatRate(display.rate)} ${currency}`,
    },
    paymentMethod: paymentMethods.find((m) => m.value === order.paymentMethod)?.label ?? order.paymentMethod,
    status: statusLabels[order.paymentStatus] ?? order.paymentStatus,
    billTo: { ...order.customerInfo, country: countryName(order.customerInfo.country) },
  };
}
