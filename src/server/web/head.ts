import type { FastifyInstance } from "fastify";
import { publicUrl } from "#server/env";

const SITE_NAME = "Stackbay";
const DEFAULT_DESCRIPTION =
  "Stackbay is the global marketplace for SaaS, APIs and developer tools, hardware, software licences and digital services.";

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

export type HeadTags = { title: string; description: string; image?: string; type?: string };

function tags(base: string, pathname: string, head: HeadTags): string {
  const url = `${base}${pathname}`;
  const lines = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:type" content="${head.type ?? "website"}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
  ];
  if (head.image)
    lines.push(`<meta property="og:image" content="${escapeHtml(new URL(head.image, base).href)}" />`);
  return lines.join("\n    ");
}

/** The <head> tags for a page path; product and content pages get their own as those modules land. */
export async function renderHead(app: FastifyInstance, pathname: string): Promise<string> {
  const base = publicUrl(app.env);
  return tags(base, pathname, {
    title: `${SITE_NAME} | Global marketplace for technology products and deals`,
    description: DEFAULT_DESCRIPTION,
  });
}
