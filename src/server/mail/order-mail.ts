import { formatDate } from "#domain/dates";
import type { Invoice } from "#domain/invoice";
import { escapeHtml as e } from "#server/lib/escape-html";

export type OrderMailInput = {
  invoice: Invoice;
  /** License keys of the order, grouped by product name, in issue order. */
  licenses: { productName: string; keys: string[] }[];
  invoiceUrl: string;
  dashboardUrl: string;
};

const cell = "padding:6px 8px;border-bottom:1px solid #e4e4e7;text-align:left";
const num = `${cell};text-align:right;white-space:nowrap`;

/**
 * The order confirmation: items, totals (USD, and the display currency with its rate), license keys
 * and the invoice link, as plain text and as simple HTML in the style of `message()`; values escaped.
 */
export function orderConfirmationMail({ invoice, licenses, invoiceUrl, dashboardUrl }: OrderMailInput) {
  const shortId = invoice.orderId.slice(0, 8);
  const name = invoice.billTo.fullName;
  const greeting = name ? `Hi ${name},` : "Hi,";
  const intro = `Thank you for your order of ${formatDate(invoice.issuedAt)}. Your payment is confirmed.`;
  const lineText = (l: Invoice["lines"][number]) => `- ${l.productName} × ${l.quantity}: ${l.amount}`;
  const totals: [string, string][] = [
    ["Subtotal", invoice.subtotal],
    [invoice.taxLabel, invoice.tax],
    ["Total", invoice.total],
  ];

  const text = [
    greeting,
    intro,
    [`Order ${shortId}`, ...invoice.lines.map(lineText)].join("\n"),
    [
      ...totals.map(([label, value]) => `${label}: ${value}`),
      ...(invoice.display ? [invoice.display.note] : []),
    ].join("\n"),
    ...(licenses.length > 0
      ? [
          [
            "Your license keys:",
            ...licenses.map((l) => `${l.productName}: ${l.keys.join(", ")}`),
            "They are also in your dashboard under Licenses.",
          ].join("\n"),
        ]
      : []),
    `Invoice ${invoice.number}: ${invoiceUrl}`,
    `Your orders: ${dashboardUrl}`,
    "",
    "Stackbay",
  ].join("\n\n");

  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
<p>${e(greeting)}</p>
<p>${e(intro)}</p>
<table style="border-collapse:collapse;width:100%;max-width:560px">
<caption style="text-align:left;font-weight:bold;padding-bottom:4px">Order ${e(shortId)}</caption>
<thead><tr><th style="${cell}">Product</th><th style="${num}">Qty</th><th style="${num}">Amount</th></tr></thead>
<tbody>
${invoice.lines.map((l) => `<tr><td style="${cell}">${e(l.productName)}</td><td style="${num}">${l.quantity}</td><td style="${num}">${e(l.amount)}</td></tr>`).join("\n")}
</tbody>
<tfoot>
${totals.map(([label, value]) => `<tr><th colspan="2" style="${num}">${e(label)}</th><td style="${num}">${e(value)}</td></tr>`).join("\n")}
</tfoot>
</table>
${invoice.display ? `<p style="color:#555">${e(invoice.display.note)}</p>` : ""}
${
  licenses.length > 0
    ? `<h2 style="font-size:16px">Your license keys</h2>
<ul>
${licenses.map((l) => `<li>${e(l.productName)}: ${l.keys.map((k) => `<code style="font-size:15px">${e(k)}</code>`).join(", ")}</li>`).join("\n")}
</ul>
<p>They are also in your dashboard under Licenses.</p>`
    : ""
}
<p><a href="${e(invoiceUrl)}" style="background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">View invoice ${e(invoice.number)}</a></p>
<p><a href="${e(dashboardUrl)}">Your orders</a></p>
<p style="color:#666">Stackbay · Dubai Silicon Oasis, UAE</p></body></html>`;

  return { subject: `Your Stackbay order ${shortId} is confirmed`, text, html };
}
