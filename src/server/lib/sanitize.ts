import sanitizeHtml from "sanitize-html";

const WEB_SCHEMES = ["http", "https"];

/**
 * Page HTML as it is stored and later shown to every visitor: document structure and formatting only.
 * Anything not listed here is dropped, with the text inside it kept (except script and style, which go
 * whole). There are no `style`, `class` or `on*` attributes, so saved content cannot run code, restyle
 * or cover the site. Iframes are not allowed at all, not even from a host allow-list: a page is text
 * written by an admin, no page needs an embed today, and an embed would let a third party run code and
 * track visitors on our origin's pages; if one is ever needed, allow it here for named hosts only.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: [
    "p",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "a",
    "strong",
    "em",
    "b",
    "i",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "mark",
    "abbr",
    "blockquote",
    "code",
    "pre",
    "hr",
    "br",
    "img",
    "table",
    "caption",
    "thead",
    "tbody",
    "tfoot",
    "tr",
    "th",
    "td",
    "figure",
    "figcaption",
    "span",
    "div",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "title", "width", "height", { name: "loading", values: ["lazy", "eager"] }],
    abbr: ["title"],
    ol: ["start", "reversed"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
    span: ["title", "lang", "dir"],
    div: ["title", "lang", "dir"],
  },
  // Only web and mail links; javascript:, data:, vbscript: and the rest are dropped. Relative URLs stay.
  allowedSchemes: [...WEB_SCHEMES, "mailto"],
  allowedSchemesByTag: { img: WEB_SCHEMES },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: true,
  disallowedTagsMode: "discard",
  transformTags: {
    // A page opened in a new tab must not get a handle on ours (reverse tabnabbing) or learn its URL.
    // Other targets would let a page navigate named windows or the top frame; only _blank survives.
    a: (tagName, { target, ...attribs }) => {
      if (target !== "_blank") return { tagName, attribs };
      const rel = new Set((attribs.rel ?? "").split(/\s+/).filter(Boolean));
      rel.add("noopener");
      rel.add("noreferrer");
      return { tagName, attribs: { ...attribs, target, rel: [...rel].join(" ") } };
    },
  },
};

export function sanitizePageHtml(html: string): string {
  return sanitizeHtml(html, options).trim();
}
