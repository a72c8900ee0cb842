import { formatDate } from "#domain/dates";
import { type Invoice, SELLER_OF_RECORD } from "#domain/invoice";
import { escapeHtml } from "#server/lib/escape-html";

const styles = `
  *{box-sizing:border-box}
  body{margin:0;background:#f4f4f5;color:#111;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
  main{max-width:800px;margin:32px auto;padding:40px;background:#fff;border:1px solid #e4e4e7;border-radius:8px}
  header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:16px;border-bottom:2px solid #111;padding-bottom:16px}
  h1{margin:0;font-size:28px;letter-spacing:.02em}
  h2{margin:0 0 4px;font-size:12px;text-transform:uppercase;letter-spacing:.08em;color:#52525b}
  .brand{font-size:20px;font-weight:700}
  dl.meta{display:grid;grid-template-columns:auto auto;gap:2px 16px;margin:8px 0 0}
  dl.meta dt{color:#52525b}
  dl.meta dd{margin:0}
  .parties{display:grid;grid-template-columns:1fr 1fr;gap:24px;margin:24px 0}
  address{font-style:normal}
  table{width:100%;border-collapse:collapse;margin-top:8px}
  th,td{padding:8px;border-bottom:1px solid #e4e4e7;text-align:left;vertical-align:top}
  th{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:#52525b}
  .num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
  .refunded{display:inline-block;margin-left:6px;padding:0 6px;border:1px solid #111;border-radius:4px;font-size:11px}
  .totals{margin:16px 0 0 auto;width:min(100%,320px);border-collapse:collapse}
  .totals th{text-transform:none;letter-spacing:0;font-size:14px;color:#111;font-weight:400}
  .totals tr.total th,.totals tr.total td{font-weight:700;border-top:2px solid #111;border-bottom:0}
  .note{margin:4px 0 0;text-align:right;color:#52525b;font-size:13px}
  footer{margin-top:32px;padding-top:16px;border-top:1px solid #e4e4e7;color:#52525b;font-size:12px}
  @media (max-width:600px){main{margin:0;padding:20px;border:0;border-radius:0}.parties{grid-template-columns:1fr}}
  @media print{body{background:#fff;color:#000}main{margin:0;max-width:none;padding:0;border:0}th,h2,dl.meta dt,.note,footer{color:#000}@page{margin:16mm}}
`;

const e = escapeHtml;

/** The invoice as one standalone, printable HTML file: inline styles only, every value escaped. */
export function invoiceHtml(invoice: Invoice): string {
  const { billTo } = invoice;
  const rows = invoice.lines
    .map(
      (line) => `<tr>
          <td>${e(line.productName)}${line.refunded ? '<span class="refunded">Refunded</span>' : ""}</td>
          <td>${e(line.vendor)}</td>
          <td class="num">${line.quantity}</td>
          <td class="num">${e(line.unitPrice)}</td>
          <td class="num">${e(line.amount)}</td>
        </tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Invoice ${e(invoice.number)} | Stackbay</title>
  <style>${styles}</style>
</head>
<body>
  <main>
    <header>
      <div>
        <div class="brand">Stackbay</div>
        <h1>Invoice</h1>
      </div>
      <dl class="meta">
        <dt>Invoice number</dt><dd>${e(invoice.number)}</dd>
        <dt>Issue date</dt><dd>${e(formatDate(invoice.issuedAt))}</dd>
        <dt>Order</dt><dd>${e(invoice.orderId)}</dd>
      </dl>
    </header>
    <div class="parties">
      <section>
        <h2>Seller of record</h2>
        <address>
          <strong>${e(SELLER_OF_RECORD.name)}</strong><br>
          ${SELLER_OF_RECORD.addressLines.map(e).join("<br>\n          ")}<br>
          TRN: ${e(invoice.sellerTrn)}
        </address>
      </section>
      <section>
        <h2>Bill to</h2>
        <address>
          <strong>${e(billTo.fullName)}</strong><br>
          ${invoice.buyerCompany ? `${e(invoice.buyerCompany)}<br>\n          ` : ""}${e(billTo.email)}<br>
          ${e(billTo.address)}<br>
          ${e(billTo.city)}, ${e(billTo.country)}${invoice.buyerTaxId ? `<br>\n          ${e(invoice.buyerTaxId.label)}: ${e(invoice.buyerTaxId.value)}` : ""}${invoice.buyerTaxId?.check ? `<br>\n          <small>${e(invoice.buyerTaxId.check)}</small>` : ""}
        </address>
      </section>
    </div>
    <table>
      <thead>
        <tr><th scope="col">Product</th><th scope="col">Vendor</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
    <table class="totals">
      <tr><th scope="row">Subtotal</th><td class="num">${e(invoice.subtotal)}</td></tr>
      <tr><th scope="row">${e(invoice.taxLabel)}</th><td class="num">${e(invoice.tax)}</td></tr>
      <tr class="total"><th scope="row">Total</th><td class="num">${e(invoice.total)}</td></tr>
    </table>
    ${invoice.taxNote ? `<p class="note">${e(invoice.taxNote)}</p>` : ""}
    ${invoice.display ? `<p class="note">${e(invoice.display.note)}</p>` : ""}
    <dl class="meta">
      <dt>Payment method</dt><dd>${e(invoice.paymentMethod)}</dd>
      <dt>Status</dt><dd>${e(invoice.status)}</dd>
    </dl>
    <footer>Amounts are in US dollars; the order was charged in USD. ${e(SELLER_OF_RECORD.name)}, ${SELLER_OF_RECORD.addressLines.map(e).join(", ")}.</footer>
  </main>
</body>
</html>
`;
}
