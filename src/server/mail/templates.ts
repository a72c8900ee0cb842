import { escapeHtml } from "#server/web/head";

/** Plain text and matching simple HTML for one message; every interpolated value is escaped. */
export function message(paragraphs: string[], action?: { label: string; url: string }) {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "", "Stackbay"].join(
    "\n\n",
  );
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5;color:#111">
${paragraphs.map((p) => `<p>${escapeHtml(p).replaceAll("\n", "<br>")}</p>`).join("\n")}
${action ? `<p><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>` : ""}
<p style="color:#666">Stackbay · Dubai Silicon Oasis, UAE</p></body></html>`;
  return { text, html };
}
