import { describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { buildInvoice, formatRate, invoiceNumber, SELLER_OF_RECORD } from "#domain/invoice";
import { EU_REVERSE_CHARGE_NOTE } from "#domain/tax";

const order: Order = {
  id: "1a2b3c4d-5e6f-4a1b-8c9d-0e1f2a3b4c5d",
  createdAt: "2026-03-05T10:00:00.000Z",
  refundableUntil: "2026-03-19T10:00:00.000Z",
  paymentMethod: "paypal",
  paymentStatus: "mock_confirmed",
  isPaid: true,
  cancelledAt: null,
  subtotal: 40.28,
  tax: 2.014,
  totalAmount: 42.294,
  // An order from before the buyer's country was asked: the columns' defaults, UAE VAT at 5%.
  buyerCountry: null,
  buyerCompany: null,
  buyerTaxId: null,
  taxJurisdiction: "AE",
  taxLabel: "UAE VAT",
  taxRate: "0.0500",
  reverseCharge: false,
  taxNote: null,
  vatCheck: null,
  currency: "USD",
  fxRate: 1,
  customerInfo: {
    fullName: "Bianca Buyer",
    email: "buyer@stackbay.test",
    address: "12 Harbour Street",
    city: "Dubai",
    country: "United Arab Emirates",
  },
  shippingAddress: null,
  items: [
    {
      id: "i1",
      productId: "p1",
      productName: "Seat License",
      price: 19.99,
      pricingUnit: "year",
      quantity: 2,
      vendor: "Acme",
      imageUrl: null,
      refundStatus: "none",
      tax: 0,
      refund: null,
      shipping: null,
      refundableUntil: null,
    },
    {
      id: "i2",
      productId: null,
      productName: "Dime Widget",
      price: 0.1,
      pricingUnit: null,
      quantity: 3,
      vendor: null,
      imageUrl: null,
      refundStatus: "none",
      tax: 0,
      refund: null,
      shipping: null,
      refundableUntil: null,
    },
  ],
};

const seller = { trn: "100123456700003" };

describe("invoices", () => {
  test("the number is INV- and the order id's first 8 characters, upper case", () => {
    expect(invoiceNumber(order.id)).toBe("INV-1A2B3C4D");
  });

  test("the seller of record is the UAE company", () => {
    expect(SELLER_OF_RECORD).toEqual({
      name: "Stackbay FZCO",
      addressLines: ["Dubai Silicon Oasis", "Dubai", "United Arab Emirates"],
    });
  });

  test("lines and amounts come from the order, in USD, each amount to the cent as charged (issue 30)", () => {
    const invoice = buildInvoice(order, seller);
    expect(invoice).toMatchObject({
      number: "INV-1A2B3C4D",
      orderId: order.id,
      issuedAt: order.createdAt,
      subtotal: "$40.28",
      taxLabel: "UAE VAT (5%)",
      taxNote: null,
      sellerTrn: "100123456700003",
      buyerCompany: null,
      buyerTaxId: null,
      // An older order's sub-cent tax reads as the cents its card was charged (`chargeCents`).
      tax: "$2.01",
      total: "$42.29 USD",
      display: null,
      paymentMethod: "PayPal",
      status: "Paid",
      billTo: order.customerInfo,
    });
    expect(invoice.lines).toEqual([
      {
        productName: "Seat License",
        vendor: "Acme",
        quantity: 2,
        // The unit it was bought in follows the unit price.
        unitPrice: "$19.99 / year",
        amount: "$39.98",
        refunded: false,
      },
      // 0.1 × 3 is 0.3 exactly, not 0.30000000000000004; a line without vendor says so.
      {
        productName: "Dime Widget",
        vendor: "Unknown Vendor",
        quantity: 3,
        unitPrice: "$0.10",
        amount: "$0.30",
        refunded: false,
      },
    ]);
  });

  test("an order shown in another currency states the amount and the rate used at checkout", () => {
    const invoice = buildInvoice({ ...order, currency: "EUR", fxRate: 0.9384 }, seller);
    // 42.294 × 0.9384 = 39.6887: an amount owed is shown to the cent, not by the catalogue's rounding.
    expect(invoice.display).toEqual({
      currency: "EUR",
      rate: 0.9384,
      total: "€39.69",
      note: "Shown at checkout as €39.69 at 1 USD = 0.9384 EUR",
    });
    expect(invoice.total).toBe("$42.29 USD");
    const aed = buildInvoice({ ...order, currency: "AED", fxRate: 3.74595 }, seller);
    expect(aed.display?.note).toBe("Shown at checkout as AED 158.43 at 1 USD = 3.74595 AED");
  });

  test("refunded items are marked and refund states read plainly", () => {
    const invoice = buildInvoice(
      {
        ...order,
        paymentStatus: "partially_refunded",
        items: order.items.map((item, i) =>
          i === 0 ? { ...item, refundStatus: "refunded" as const } : item,
        ),
      },
      seller,
    );
    expect(invoice.lines.map((l) => l.refunded)).toEqual([true, false]);
    expect(invoice.status).toBe("Partially refunded");
    expect(buildInvoice({ ...order, paymentStatus: "refunded" }, seller).status).toBe("Refunded");
    // A bank-transfer order's invoice shows while its money is awaited.
    expect(buildInvoice({ ...order, paymentStatus: "processing", isPaid: false }, seller).status).toBe(
      "Awaiting payment",
    );
  });

  test("a business buyer's company and tax ID, and the tax line with its label and rate", () => {
    const india = buildInvoice(
      {
        ...order,
        customerInfo: { ...order.customerInfo, country: "IN" },
        buyerCountry: "IN",
        buyerCompany: "Acme Software Pvt Ltd",
        buyerTaxId: "27AAPFU0939F1ZV",
        taxJurisdiction: "IN",
        taxLabel: "India GST",
        taxRate: "0.1800",
      },
      seller,
    );
    expect(india).toMatchObject({
      taxLabel: "India GST (18%)",
      taxNote: null,
      buyerCompany: "Acme Software Pvt Ltd",
      buyerTaxId: { label: "GSTIN", value: "27AAPFU0939F1ZV", check: null },
      billTo: { country: "India" },
    });
    const reverse = buildInvoice(
      {
        ...order,
        buyerCountry: "DE",
        buyerCompany: "Acme GmbH",
        buyerTaxId: "DE136695976",
        taxJurisdiction: "DE",
        taxLabel: "Reverse charge",
        taxRate: "0.0000",
        reverseCharge: true,
        taxNote: EU_REVERSE_CHARGE_NOTE,
        vatCheck: {
          register: "VIES",
          status: "valid",
          reference: "WAPIAAAAW1Z9XQ2K",
          checkedAt: "2026-03-05T10:00:00.000Z",
        },
      },
      seller,
    );
    expect(reverse).toMatchObject({
      taxLabel: "Reverse charge",
      taxNote: EU_REVERSE_CHARGE_NOTE,
      buyerTaxId: {
        label: "VAT number",
        value: "DE136695976",
        // The proof the reverse charge rests on, printed with the number.
        check: "Confirmed by VIES on 2026-03-05, consultation number WAPIAAAAW1Z9XQ2K",
      },
    });
  });

  test("rates print without grouping or trailing zeros", () => {
    expect(formatRate(83.12)).toBe("83.12");
    expect(formatRate(1234.5678912)).toBe("1234.567891");
  });
});
