import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type ProductList, productListQuery } from "#domain/catalog-schemas";
import { normalizeSearch, type Suggestions, type Synonym } from "#domain/search";
import { onSale } from "#server/db/products";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { searchSynonyms } from "#server/db/schema/search";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { listProducts } from "#server/modules/catalog/repository";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Awaited<ReturnType<typeof signedInClient>>;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  // The demo catalogue has no "stripe"; the typo test needs a word whose letters a person swaps.
  await t.db.insert(products).values({
    name: "Stripe Billing Connector",
    vendor: "Paybridge",
    description: "Syncs invoices and subscriptions both ways.",
    category: "apis",
    price: "29.0000",
  });
});
afterAll(() => t.close());

async function search(text: string): Promise<ProductList> {
  const res = await t.app.inject({ method: "GET", url: `/api/products?search=${encodeURIComponent(text)}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const names = async (text: string) => (await search(text)).items.map((p) => p.name);

/**
 * The fixed relevance set: what a person types and the product(s) they meant, on the demo catalogue.
 * Exact names, prefixes, vendors, several words, typos, accents and a synonym ("k8s", added below).
 */
const relevanceSet: { query: string; expected: string[] }[] = [
  { query: "Nimbus CRM Pro", expected: ["Nimbus CRM Pro"] },
  { query: "nimbus", expected: ["Nimbus CRM Pro"] },
  { query: "helpdesk", expected: ["Corvane Helpdesk"] },
  { query: "payrol", expected: ["Tidewell Payroll Cloud"] },
  { query: "geocode", expected: ["Geocode API"] },
  { query: "sms gateway", expected: ["SMS Gateway API"] },
  { query: "voice api", expected: ["Programmable Voice API"] },
  { query: "ocr", expected: ["Document OCR API"] },
  { query: "coldharbor", expected: ["Coldharbor CH2 Rack Server", "Coldharbor Inference Node G2"] },
  { query: "ferrowave switch", expected: ["Ferrowave FW-4800P PoE Switch"] },
  { query: "wi-fi access point", expected: ["Ferrowave AP7 Wi-Fi 7 Access Point"] },
  { query: "fido2 key", expected: ["Pylonix FIDO2 Security Key 5-Pack"] },
  { query: "penetration test", expected: ["Web Application Penetration Test"] },
  { query: "hypervisor", expected: ["Stratowell Hypervisor Standard"] },
  { query: "uptime", expected: ["Orbitide Uptime Board"] },
  { query: "latticepoint search", expected: ["Latticepoint Hosted Search"] },
  { query: "identity verification", expected: ["Identity Verification API"] },
  { query: "thin client", expected: ["Ironpine T3 Thin Client"] },
  { query: "kubernetes", expected: ["Kubernetes Launch Package"] },
  { query: "kubernets", expected: ["Kubernetes Launch Package"] },
  { query: "helpdsk", expected: ["Corvane Helpdesk"] },
  { query: "clod migration", expected: ["Cloud Migration Assessment"] },
  { query: "firewal", expected: ["Cinderpath Sentinel 1U Firewall"] },
  { query: "transcripton", expected: ["Speech Transcription API"] },
  { query: "Kübernétes", expected: ["Kubernetes Launch Package"] },
  { query: "QUÍLLSTONE pdf", expected: ["Quillstone PDF Studio"] },
  { query: "k8s", expected: ["Kubernetes Launch Package"] },
];

describe("relevance set", () => {
  beforeAll(async () => {
    const res = await admin.post("/api/admin/search/synonyms", { term: "k8s", synonyms: ["kubernetes"] });
    expect(res.statusCode, res.body).toBe(201);
  });

  test("precision@1 and @3 on the fixed queries stay above their floor", async () => {
    let at1 = 0;
    let at3 = 0;
    const misses: string[] = [];
    for (const { query, expected } of relevanceSet) {
      const top = (await names(query)).slice(0, 3);
      if (top[0] && expected.includes(top[0])) at1++;
      else misses.push(`${query} → ${top.join(" | ") || "nothing"}`);
      if (top.some((name) => expected.includes(name))) at3++;
    }
    const p1 = at1 / relevanceSet.length;
    const p3 = at3 / relevanceSet.length;
    // The figures the issue asks to report, printed with the test run.
    process.stdout.write(
      `search relevance on ${relevanceSet.length} queries: precision@1 ${p1.toFixed(2)}, precision@3 ${p3.toFixed(2)}` +
        (misses.length ? `\n  not first: ${misses.join("\n  not first: ")}` : "") +
        "\n",
    );
    expect(p1).toBeGreaterThanOrEqual(0.9);
    expect(p3).toBe(1);
  });
});

describe("a search with more matches than SEARCH_RANK_EXACT_UP_TO (ranked by tiers)", () => {
  // Every word's pages, read both ways on the same catalogue: tiers must give the exact order.
  const words = ["cloud", "api", "server", "security", "data", "pro", "helpdsk", "clod", "kubernets", "k8s"];
  const read = (search: string, page: number, rankExactUpTo?: number) =>
    listProducts(
      t.db,
      productListQuery.parse({ search, page, pageSize: 1 }),
      undefined,
      undefined,
      rankExactUpTo,
    );

  test("gives the same pages, in the same order, as scoring every match", async () => {
    for (const word of words) {
      for (const page of [1, 2, 3, 4]) {
        const exact = await read(word, page);
        const tiered = await read(word, page, 0);
        expect(
          tiered.items.map((p) => p.name),
          `${word}, page ${page}`,
        ).toEqual(exact.items.map((p) => p.name));
        expect(tiered.total).toBe(exact.total);
      }
    }
  });

  test("keeps precision on the fixed queries", async () => {
    const tiered = await createTestApp({ seed: true, env: { SEARCH_RANK_EXACT_UP_TO: "0" } });
    try {
      await tiered.db.insert(products).values({
        name: "Stripe Billing Connector",
        vendor: "Paybridge",
        description: "Syncs invoices and subscriptions both ways.",
        category: "apis",
        price: "29.0000",
      });
      await tiered.db.insert(searchSynonyms).values({ term: "k8s", synonyms: ["kubernetes"] });
      const misses: string[] = [];
      for (const { query, expected } of relevanceSet) {
        const res = await tiered.app.inject({ url: `/api/products?search=${encodeURIComponent(query)}` });
        const top = res.json<ProductList>().items[0]?.name;
        if (!top || !expected.includes(top)) misses.push(`${query} → ${top ?? "nothing"}`);
      }
      expect(misses).toEqual([]);
    } finally {
      await tiered.close();
    }
  });
});

describe("ranking and matching", () => {
  test("name and vendor matches come before description-only matches", async () => {
    const list = await search("cloud");
    const inName = list.items.map((p) => /cloud/i.test(`${p.name} ${p.vendor ?? ""}`));
    expect(inName[0]).toBe(true);
    // Once a description-only match appears, no name match follows it.
    const firstDescriptionOnly = inName.indexOf(false);
    if (firstDescriptionOnly >= 0) expect(inName.slice(firstDescriptionOnly)).not.toContain(true);
  });

  test("typos find what the person meant: clod, strpie, kubernets", async () => {
    expect((await names("clod")).some((n) => /cloud/i.test(n))).toBe(true);
    expect((await names("strpie"))[0]).toBe("Stripe Billing Connector");
    expect((await names("kubernets"))[0]).toBe("Kubernetes Launch Package");
  });

  test("every word must match; case and accents do not matter", async () => {
    expect((await search("kubernetes payroll")).total).toBe(0);
    expect(await names("TIDEWELL pâyroll")).toEqual(["Tidewell Payroll Cloud"]);
  });

  test("an explicit sort still orders the matches by its own key", async () => {
    const prices = (await t.app.inject({ url: "/api/products?search=api&sort=price-low" }))
      .json<ProductList>()
      .items.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });
});

describe("one edit in a short word (issue 37)", () => {
  // Trigrams barely see a swap in a word of eight letters or fewer ("pipleine" and "pipeline" 0.38).
  test.each([
    ["pipleine", "CI/CD Pipeline Audit", "pipeline"],
    ["merdiian", "Meridian Forge API Designer", "meridian"],
    ["wesbite", "B2B Launch Website Package", "website"],
    ["orbtiide", "Orbitide Uptime Board", "orbitide"],
    ["iropnine", "Ironpine T3 Thin Client", "ironpine"],
    ["ndoe", "Coldharbor Inference Node G2", "node"],
    ["nide", "Coldharbor Inference Node G2", "node"],
    ["rck", "Coldharbor CH2 Rack Server", undefined],
  ])("%j finds %j", async (typo, product, meant) => {
    const found = await search(typo);
    if (meant === undefined) {
      // Three letters are matched only as written.
      expect(found.total).toBe(0);
      return;
    }
    expect(found.items.slice(0, 5).map((p) => p.name)).toContain(product);
    expect(found.didYouMean).toBe(meant);
  });

  // Each word swapped at its start and in its middle: the trigrams of the padded start and of the inside
  // (every position, 1,065 swaps, passed with the first version of the one-edit corrections).
  test("every name word of 4+ letters, with two adjacent letters swapped, finds its product in the top five", async () => {
    const onSaleRows = await t.db
      .select({ id: products.id, name: products.name, text: products.searchText })
      .from(products)
      .where(onSale());
    const catalogueText = onSaleRows.map((p) => p.text).join(" | ");
    const failures: string[] = [];
    let checked = 0;
    let slowest = 0;
    for (const product of onSaleRows) {
      for (const word of new Set(normalizeSearch(product.name).split(" "))) {
        if (word.length < 4) continue;
        for (const i of new Set([0, Math.floor((word.length - 2) / 2)])) {
          if (word[i] === word[i + 1]) continue;
          const typo = `${word.slice(0, i)}${word[i + 1]}${word[i]}${word.slice(i + 2)}`;
          // A swap that spells a word the catalogue holds is not a typo to it ("form" for "from").
          if (catalogueText.includes(typo)) continue;
          checked++;
          const started = performance.now();
          const top = (await search(typo)).items.slice(0, 5).map((p) => p.id);
          if (!top.includes(product.id)) failures.push(`${typo} (${word}) → not ${product.name}`);
          slowest = Math.max(slowest, performance.now() - started);
        }
      }
    }
    process.stdout.write(`swaps checked: ${checked}, slowest ${slowest.toFixed(0)} ms\n`);
    expect(checked).toBeGreaterThan(300);
    expect(failures).toEqual([]);
  }, 180_000);

  test("type-ahead corrects the same way", async () => {
    const suggested = (await t.app.inject({ url: "/api/search/suggestions?q=pipleine" })).json<Suggestions>();
    expect(suggested.products).toContainEqual(expect.objectContaining({ name: "CI/CD Pipeline Audit" }));
  });
});

describe("did you mean", () => {
  test("a word found nowhere as written gets the nearest known word", async () => {
    expect((await search("kubernets")).didYouMean).toBe("kubernetes");
    expect((await search("coldharber servr")).didYouMean).toBe("coldharbor server");
  });

  test("no suggestion when every word is found, or nothing is near", async () => {
    expect((await search("kubernetes")).didYouMean).toBeUndefined();
    const nothing = await search("xqzvwj");
    expect(nothing.total).toBe(0);
    expect(nothing.didYouMean).toBeUndefined();
  });
});

describe("synonyms", () => {
  test("an admin adds, changes and removes a synonym; search follows at once; each change is audited", async () => {
    expect((await search("pg")).items.some((p) => /postgres/i.test(p.name))).toBe(false);
    await t.db
      .insert(products)
      .values({ name: "Managed PostgreSQL Cluster", category: "saas", price: "10.0000" });

    const created = await admin.post("/api/admin/search/synonyms", {
      term: " PG ",
      synonyms: ["PostgreSQL"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const synonym = created.json<Synonym>();
    expect(synonym).toMatchObject({ term: "pg", synonyms: ["postgresql"] });
    expect((await names("pg"))[0]).toBe("Managed PostgreSQL Cluster");

    const duplicate = await admin.post("/api/admin/search/synonyms", { term: "pg", synonyms: ["postgres"] });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().code).toBe("SYNONYM_EXISTS");

    const changed = await admin.request("PUT", `/api/admin/search/synonyms/${synonym.id}`, {
      term: "pg",
      synonyms: ["cluster", "postgresql"],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const list = await admin.get("/api/admin/search/synonyms");
    expect(list.json().items.find((s: Synonym) => s.term === "pg").synonyms).toEqual([
      "cluster",
      "postgresql",
    ]);

    expect((await admin.request("DELETE", `/api/admin/search/synonyms/${synonym.id}`)).statusCode).toBe(200);
    expect(await names("pg")).not.toContain("Managed PostgreSQL Cluster");

    const audit = await t.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "search_synonym"), eq(auditLog.entityId, synonym.id)));
    expect(audit.map((a) => a.action).sort()).toEqual(["create", "delete", "update"]);
  });

  test("bad input is refused with the form's messages", async () => {
    const own = await admin.post("/api/admin/search/synonyms", { term: "vm", synonyms: ["VM"] });
    expect(own.statusCode).toBe(400);
    expect(own.json().details[0].message).toBe("A word cannot be its own synonym");
    const none = await admin.post("/api/admin/search/synonyms", { term: "vm", synonyms: [] });
    expect(none.json().details[0].message).toBe("Give at least one synonym");
  });

  test("only admins may read or change synonyms", async () => {
    const anonymous = createClient(t.app);
    expect(
      (await anonymous.post("/api/admin/search/synonyms", { term: "a1", synonyms: ["b1"] })).statusCode,
    ).toBe(401);
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect(
      (await buyer.post("/api/admin/search/synonyms", { term: "a1", synonyms: ["b1"] })).statusCode,
    ).toBe(403);
    expect((await buyer.get("/api/admin/search/synonyms")).statusCode).toBe(403);
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    expect(
      (await seller.request("DELETE", "/api/admin/search/synonyms/00000000-0000-4000-8000-000000000000"))
        .statusCode,
    ).toBe(403);
  });
});

describe("GET /api/search/suggestions", () => {
  async function suggest(q: string) {
    const res = await t.app.inject({ url: `/api/search/suggestions?q=${encodeURIComponent(q)}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
    return res.json<Suggestions>();
  }

  test("products, vendors and categories, typos allowed", async () => {
    const cold = await suggest("coldharbr");
    expect(cold.products.map((p) => p.name)).toEqual(
      expect.arrayContaining(["Coldharbor CH2 Rack Server", "Coldharbor Inference Node G2"]),
    );
    expect(cold.vendors[0]).toMatchObject({ name: "Coldharbor Compute" });
    expect((await suggest("softwre")).categories).toEqual([{ slug: "software", name: "Software Licenses" }]);
    expect((await suggest("kubern")).products[0]?.name).toBe("Kubernetes Launch Package");
  });

  test("suggested products are the ones the text (or its correction) names, never a mention in a description", async () => {
    // Every suggestion's name or vendor has a word starting with what stands for the text.
    const startsAWord = (word: string) => (p: { name: string; vendor: string | null }) =>
      ` ${normalizeSearch(`${p.name} ${p.vendor ?? ""}`)}`.includes(` ${word}`);
    const clod = (await suggest("clod")).products;
    expect(clod.map((p) => p.name)).toContain("Cloud Migration Assessment");
    expect(clod.every(startsAWord("cloud"))).toBe(true);
    expect(clod.map((p) => p.name)).not.toContain("Address Data Cleanup Service");
    // "clud" is found as written only inside descriptions ("includes"): nothing to suggest.
    expect((await suggest("clud")).products).toEqual([]);
    for (const [typed, word] of [
      ["dat", "dat"],
      ["secrity", "security"],
      ["adress", "address"],
      ["payrol", "payrol"],
    ] as const) {
      const found = (await suggest(typed)).products;
      expect(found.length, typed).toBeGreaterThan(0);
      expect(
        found.filter((p) => !startsAWord(word)(p)).map((p) => p.name),
        typed,
      ).toEqual([]);
    }
    // Names starting with the correction come first.
    expect((await suggest("adress")).products[0]?.name).toBe("Address Data Cleanup Service");
  });

  test("a storefront with nothing on sale is not suggested (its page would be a 404)", async () => {
    // Arcwright is not verified: its storefront is public only while one of its products is on sale.
    const arcwright = sql`${products.vendor} = 'Arcwright'`;
    // Written straight to the database, the change reaches the caches through its notification, which
    // on PostgreSQL comes a moment after the commit: wait for it, as the next visitor would.
    const moderate = async (status: "pending" | "approved") => {
      const clears = t.app.catalogueCache.stats.clears;
      await t.db.update(products).set({ moderationStatus: status }).where(arcwright);
      await vi.waitFor(() => expect(t.app.catalogueCache.stats.clears).toBeGreaterThan(clears));
    };
    await moderate("pending");
    try {
      expect((await suggest("arcwright")).vendors).toEqual([]);
    } finally {
      await moderate("approved");
    }
    expect((await suggest("arcwright")).vendors.map((v) => v.name)).toEqual(["Arcwright"]);
  });

  test("an empty query suggests nothing; a long one is refused", async () => {
    expect(await suggest("  ")).toEqual({ products: [], vendors: [], categories: [] });
    const long = await t.app.inject({ url: `/api/search/suggestions?q=${"a".repeat(101)}` });
    expect(long.statusCode).toBe(400);
  });
});
