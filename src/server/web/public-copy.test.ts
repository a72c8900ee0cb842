import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { paymentMethods } from "#domain/checkout";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";

/**
 * Public copy may only promise what the product does (issue 30). Each claim names the feature it needs,
 * checked in the code as it is: when someone builds the feature, its check turns true and the copy may
 * say it again. Until then, a sentence matching a claim anywhere in public copy fails this test.
 */
const columnsOf = (table: Parameters<typeof getTableColumns>[0]) => Object.keys(getTableColumns(table));

const features = {
  /** A checkout payment method in cryptocurrency. */
  cryptoPayments: paymentMethods.some((m) => /crypto|bitcoin|coin/i.test(`${m.value} ${m.label}`)),
  /** An identity or business (KYC) check recorded on the account. */
  sellerIdentityChecks: columnsOf(user).some((c) => /kyc|identity/i.test(c)),
  /** Views or saves counted per product, which a seller could be shown. */
  productViewCounts: columnsOf(products).some((c) => /view|saves/i.test(c)),
  /** A partner or affiliate role: someone who promotes Stackbay without reselling. */
  affiliateProgramme: columnsOf(user).some((c) => /partner|affiliate/i.test(c)),
  /**
   * Never: the marketplace's figures are counted from the database (`GET /api/marketplace-stats`), so
   * copy states none of its own.
   */
  figuresInCopy: false,
};

const claims: {
  claim: string;
  feature: keyof typeof features;
  patterns: RegExp[];
  /** A sentence the copy once held, so a pattern that no longer catches it is noticed. */
  example: string;
}[] = [
  {
    claim: "Buyers can pay with cryptocurrency",
    feature: "cryptoPayments",
    patterns: [/cryptocurrency at checkout/i, /coins and networks/i, /blockchain network has confirmed/i],
    example:
      "Yes. Choose cryptocurrency at checkout and you will see the coins and networks we currently support.",
  },
  {
    claim: "Every seller passes identity and business checks",
    feature: "sellerIdentityChecks",
    patterns: [
      /identity and business/i,
      /complete (the|a short) KYC/i,
      /verify your identity/i,
      /every (vendor|seller)[^.]*\b(verified|checks?)\b/i,
      /\b(compare|from) verified vendors/i,
    ],
    example: "Every seller passes identity and business checks before a product goes live.",
  },
  {
    claim: "Sellers see views and saves of their products",
    feature: "productViewCounts",
    patterns: [/views,? (and )?saves/i, /\bviews\b[^.]*\bfor every product/i],
    example: "See views, saves and orders for every product you list.",
  },
  {
    claim: "A partner or affiliate programme",
    feature: "affiliateProgramme",
    patterns: [/partner program(me)?\b/i, /\baffiliate\b/i],
    example: "Partner or affiliate: promotes Stackbay and its Products under our partner programme.",
  },
  {
    claim: "Fixed marketplace figures (products, vendors, countries, customers, rating)",
    feature: "figuresInCopy",
    patterns: [
      /\b\d[\d,]*K?\+\s*(active |global |verified )?(products|vendors|countries|customers|partners)\b/i,
      /more than \d+ countries/i,
      /thousands of (businesses|customers|buyers)/i,
      /value: "(\d[\d,]*K?\+|\d\.\d)"/,
    ],
    example: "10K+ products · 500+ vendors · 50+ countries · 10,000+ customers",
  },
];

const root = path.resolve(import.meta.dirname, "../../..");

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.(tsx?|html)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * Where Stackbay's own copy lives: the web app, the texts in the domain (FAQ, content blocks' defaults),
 * the seeded content pages, the server's head tags and sitemap, and the page shell. The demo catalogue's
 * listings are its vendors' words about their products ("SMS to 200+ countries"), not ours.
 */
const publicCopy = [
  ...filesUnder("src/web"),
  ...filesUnder("src/domain"),
  "src/server/db/seed/content-data.ts",
  "src/server/db/seed/demo.ts",
  ...filesUnder("src/server/web"),
  "index.html",
].map((file) => ({ file, text: readFileSync(path.join(root, file), "utf8") }));

describe("public copy promises only what the product does", () => {
  test("every claim's patterns catch the sentence it was written for", () => {
    for (const { claim, patterns, example } of claims)
      expect(
        patterns.some((p) => p.test(example)),
        claim,
      ).toBe(true);
  });

  test("no claim appears while its feature is missing", () => {
    expect(publicCopy.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { claim, feature, patterns } of claims) {
      if (features[feature]) continue;
      for (const { file, text } of publicCopy) {
        for (const [n, line] of text.split("\n").entries()) {
          if (patterns.some((p) => p.test(line))) found.push(`${file}:${n + 1} (${claim}): ${line.trim()}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
