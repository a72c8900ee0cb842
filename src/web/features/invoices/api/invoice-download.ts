/** The invoice as a standalone HTML file; the server answers it as an attachment. */
export const invoiceDownloadUrl = (orderId: string) =>
  `/api/orders/${encodeURIComponent(orderId)}/invoice.html`;
