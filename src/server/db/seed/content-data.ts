import { type ContentBlockKey, contentBlockRegistry } from "#domain/content-blocks";

const seededBlocks: ContentBlockKey[] = [
  "home.hero.title",
  "home.hero.subtitle",
  "home.cta.title",
  "home.cta.subtitle",
  "footer.tagline",
];

/**
 * Some of the site's texts saved with their built-in defaults; the rest stay unsaved, so the admin
 * screen shows both kinds (the site falls back to the registry's default for those).
 */
export const demoContentBlocks: { key: string; content: string }[] = seededBlocks.map((key) => ({
  key,
  content: contentBlockRegistry[key].defaultText,
}));

export const demoPages: {
  slug: string;
  title: string;
  isActive: boolean;
  description: string;
  content: string;
}[] = [
  {
    slug: "buyer-protection",
    title: "Buyer Protection",
    isActive: true,
    description:
      "How Stackbay protects business buyers: reviewed listings, secure payments and a clear refund process.",
    content: `<h2>Buy with confidence</h2>
<p>Our team reviews new listings before they go live, and vendors we have checked carry a Verified vendor badge on their storefront. When something goes wrong, you have a clear path to a resolution.</p>
<h3>Refunds</h3>
<p>Request a refund from your dashboard. The seller has <strong>3 business days</strong> to respond; anything left unresolved goes to our team for a final review. Approved refunds reach your original payment method within <strong>5 to 10 business days</strong>.</p>
<h3>Secure payments</h3>
<p>Payments are processed in US dollars by our payment partners. Card details never touch Stackbay's servers.</p>
<h3>Licenses you can trust</h3>
<p>License keys are issued by the platform and can be checked by the vendor's software at any time, so a key you bought here is always recognised.</p>`,
  },
  {
    slug: "seller-guide",
    title: "Selling on Stackbay",
    isActive: true,
    description: "A short guide for vendors: listing products, pricing in USD, resellers and payouts.",
    content: `<h2>Reach business buyers around the world</h2>
<p>List SaaS plans, APIs, hardware, software licenses or services. Prices are set in US dollars and shown to each buyer in their own currency.</p>
<h3>Getting started</h3>
<ol><li>Create a seller account and choose where your payouts go: a Stripe account or a bank account.</li><li>Add your products with features, specifications and images; our team reviews each new listing before it goes live.</li><li>Decide which products resellers may promote, and at what commission.</li></ol>
<h3>Payouts</h3>
<p>Payouts follow the refund window, so you are never asked to claw back money you have already received.</p>`,
  },
];
