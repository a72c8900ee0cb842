/**
 * The editable texts the site really shows, each with the label admins see and the text the site shows
 * until an admin saves another (or when the saved text cannot be loaded). The admin screen lists every
 * one of these even before the database has a row for it.
 */
export const contentBlockRegistry = {
  "home.hero.title": { label: "Home: hero title", defaultText: "Welcome to Stackbay" },
  "home.hero.subtitle": {
    label: "Home: hero subtitle",
    defaultText:
      "The global marketplace for SaaS, APIs, hardware, software licenses and digital services. Compare vendors, buy with confidence and get to work the same day.",
  },
  "home.values.global": {
    label: "Home: Global Marketplace card",
    defaultText:
      "Software, APIs, hardware and services from vendors around the world, priced in your currency.",
  },
  "home.values.secure": {
    label: "Home: Secure Transactions card",
    defaultText:
      "Payments settled in USD through audited providers, with a clear refund process if something goes wrong.",
  },
  "home.values.instant": {
    label: "Home: Instant Access card",
    defaultText: "License keys and access details arrive the moment your order is confirmed.",
  },
  "home.values.verified": {
    label: "Home: Verified Vendors card",
    defaultText:
      "Our team reviews new listings before they go live, and vendors we have checked carry a Verified vendor badge.",
  },
  "home.cta.title": { label: "Home: call to action title", defaultText: "Ready to build your stack?" },
  "home.cta.subtitle": {
    label: "Home: call to action text",
    defaultText: "Source your technology on Stackbay, or talk to our team about volume pricing.",
  },
  "footer.tagline": {
    label: "Footer: tagline",
    defaultText: "Technology products and deals from vendors around the world, for businesses everywhere.",
  },
} as const satisfies Record<string, { label: string; defaultText: string }>;

export type ContentBlockKey = keyof typeof contentBlockRegistry;

export const knownContentBlockKeys = Object.keys(contentBlockRegistry) as ContentBlockKey[];

export function isKnownContentBlock(key: string): key is ContentBlockKey {
  return Object.hasOwn(contentBlockRegistry, key);
}
