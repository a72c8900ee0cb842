export const categories = [
  { slug: "saas", name: "SaaS Solutions" },
  { slug: "apis", name: "APIs & Developer Tools" },
  { slug: "hardware", name: "Hardware" },
  { slug: "software", name: "Software Licenses" },
  { slug: "services", name: "Digital Services" },
] as const;

export type CategorySlug = (typeof categories)[number]["slug"];

export const ALL_CATEGORIES = { slug: "all", name: "All Categories" } as const;
