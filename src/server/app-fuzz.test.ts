import { afterAll, beforeAll, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

/**
 * Hostile input over every operation of the OpenAPI document, anonymous and signed in: whatever is
 * sent, the answer is never a 5xx. Variants come from each operation's declared parameters and body
 * schema, so a new route is fuzzed without touching this file.
 */

type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  pattern?: string;
  nullable?: boolean;
  const?: unknown;
  default?: unknown;
};
type Parameter = { name: string; in: "query" | "path" | "header" | "cookie"; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
};
type Doc = { paths: Record<string, Record<string, Operation>> };
type Client = ReturnType<typeof createClient>;
type Path = (string | number)[];

/** mulberry32: the same variants on every run, so a failure can be reproduced. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seededRandom(0x5eed);
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;

const typeOf = (schema: JsonSchema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== "null");
  return schema.type;
};
const firstAlternative = (schema: JsonSchema): JsonSchema =>
  schema.anyOf?.find((s) => s.type !== "null") ??
  schema.oneOf?.find((s) => s.type !== "null") ??
  schema.allOf?.[0] ??
  schema;

/** A value the schema would likely accept: the base every variant changes in one place. */
function sample(raw: JsonSchema, name = ""): unknown {
  const schema = firstAlternative(raw);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case "object":
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value, key)]),
      );
    case "array":
      return schema.items ? [sample(schema.items, name)] : [];
    case "integer":
      return Math.max(1, schema.minimum ?? 1);
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return true;
    case "string":
      return sampleString(schema, name);
    default:
      return "fuzz";
  }
}

/** Ids of seeded rows, so variants get past "not found" and into the code that stores things. */
const known: { productId?: string; pageId?: string } = {};

function sampleString(schema: JsonSchema, name: string): string {
  if (name === "productId" && known.productId) return known.productId;
  if (schema.format === "uuid" || /id$/i.test(name)) return uuid();
  if (schema.format === "email" || /email/i.test(name)) return "fuzz@example.com";
  if (schema.format === "uri" || /url/i.test(name)) return "/uploads/fuzz.webp";
  if (schema.format === "date-time") return new Date(0).toISOString();
  if (/password/i.test(name)) return "fuzz password 123";
  if (/code/i.test(name)) return "123456";
  if (schema.pattern?.includes("\\/uploads")) return "/uploads/fuzz.webp";
  return "fuzz-value".padEnd(schema.minLength ?? 0, "x");
}

/** Every leaf of a sampled value, with the schema that declared it. */
function leaves(value: unknown, schema: JsonSchema, at: Path = []): { at: Path; schema: JsonSchema }[] {
  const s = firstAlternative(schema);
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => leaves(item, s.items ?? {}, [...at, i]));
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) =>
      leaves(item, s.properties?.[key] ?? {}, [...at, key]),
    );
  }
  return [{ at, schema: s }];
}

function setAt(value: unknown, at: Path, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at.at(-1) as string | number] = replacement;
  return copy;
}

const LONG = "x".repeat(100_000);
const stringHostiles: unknown[] = ["fuzz\u0000value", LONG, "\ud800lone", "%00", "' or 1=1 --"];
const numberHostiles: unknown[] = [1e308, 2 ** 63, -1, "NaN", -1e308, 0.00001];
const typeHostiles: unknown[] = [{ nested: "\u0000" }, ["\u0000"], null];
const queryHostiles = ["fuzz\u0000value", LONG.slice(0, 20_000), "1e308", "9223372036854775808", "-1", "NaN"];

function hostilesFor(schema: JsonSchema): unknown[] {
  const type = typeOf(firstAlternative(schema));
  const own = type === "number" || type === "integer" ? numberHostiles : stringHostiles;
  return [...own, ...typeHostiles];
}

type Variant = { label: string; url: string; payload?: unknown; raw?: Buffer };

function pathFor(template: string, params: Parameter[], override?: { name: string; value: string }) {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (override?.name === name) return encodeURIComponent(override.value);
    const schema = params.find((p) => p.in === "path" && p.name === name)?.schema ?? {};
    const seeded = name === "id" && template.includes("/products/") ? known.productId : undefined;
    const page = name === "id" && template.includes("/pages/") ? known.pageId : undefined;
    const value = seeded ?? page ?? sample(schema, name);
    return encodeURIComponent(String(value === "fuzz-value" ? "fuzz-slug" : value));
  });
}

function queryFor(params: Parameter[], override?: { name: string; value: string }) {
  const search = new URLSearchParams();
  for (const p of params.filter((q) => q.in === "query")) {
    search.set(p.name, override?.name === p.name ? override.value : String(sample(p.schema, p.name)));
  }
  if (override && !params.some((p) => p.in === "query" && p.name === override.name)) {
    search.set(override.name, override.value);
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

function variants(template: string, operation: Operation, thorough: boolean): Variant[] {
  const params = operation.parameters ?? [];
  const bodySchema = operation.requestBody?.content?.["application/json"]?.schema;
  const base = bodySchema ? sample(bodySchema) : undefined;
  const baseUrl = pathFor(template, params) + queryFor(params);
  const out: Variant[] = [{ label: "sampled", url: baseUrl, payload: base }];

  for (const p of params.filter((q) => q.in === "path")) {
    for (const value of thorough ? queryHostiles : queryHostiles.slice(0, 1)) {
      const url = pathFor(template, params, { name: p.name, value }) + queryFor(params);
      out.push({ label: `path ${p.name}=${value.slice(0, 20)}`, url, payload: base });
    }
  }
  for (const p of params.filter((q) => q.in === "query")) {
    for (const value of thorough ? queryHostiles : queryHostiles.slice(0, 1)) {
      const url = pathFor(template, params) + queryFor(params, { name: p.name, value });
      out.push({ label: `query ${p.name}=${value.slice(0, 20)}`, url, payload: base });
    }
  }
  // Raw percent-escapes that are not UTF-8, in a query value and in the path.
  out.push({
    label: "query invalid utf-8",
    url: `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}q=%FF%FE%00`,
  });
  out.push({ label: "path invalid utf-8", url: pathFor(template, params).replace(/[^/]+$/, "%C3%28") });

  if (bodySchema && base !== undefined) {
    for (const leaf of leaves(base, bodySchema)) {
      const hostiles = thorough ? hostilesFor(leaf.schema) : ["fuzz\u0000value", null];
      for (const value of hostiles) {
        const shown = typeof value === "string" ? value.slice(0, 20) : JSON.stringify(value);
        out.push({
          label: `body ${leaf.at.join(".")}=${shown}`,
          url: baseUrl,
          payload: setAt(base, leaf.at, value),
        });
      }
    }
    const extra = typeof base === "object" && base !== null ? { ...base, unknownField: "\u0000" } : base;
    out.push({ label: "body unknown field", url: baseUrl, payload: extra });
    out.push({ label: "body array", url: baseUrl, payload: [base] });
    out.push({ label: "body null", url: baseUrl, raw: Buffer.from("null") });
    out.push({
      label: "body invalid utf-8",
      url: baseUrl,
      raw: Buffer.concat([
        Buffer.from('{"name":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
        Buffer.from('"}'),
      ]),
    });
    out.push({
      label: "body lone surrogate escape",
      url: baseUrl,
      raw: Buffer.from('{"name":"\\ud800","email":"\\udfff"}'),
    });
  }
  return out;
}

let t: Awaited<ReturnType<typeof createTestApp>>;
let doc: Doc;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  doc = (await t.app.inject("/api/openapi.json")).json();
  known.productId = (await t.app.inject("/api/products")).json().items[0].id;
  const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  known.pageId = (await admin.get("/api/admin/pages")).json().items[0]?.id;
});
afterAll(() => t.close());

/** Operations that would end the session the fuzzer is using; fuzzed anonymously only. */
const sessionEnding = new Set([
  "POST /api/auth/sign-out",
  "POST /api/me/password",
  "POST /api/me/two-factor/enable",
]);

test("no operation answers 5xx to hostile input, anonymous or signed in", { timeout: 180_000 }, async () => {
  const who: { name: string; client: () => Promise<Client>; thorough: boolean }[] = [
    { name: "anonymous", client: async () => createClient(t.app), thorough: false },
    {
      name: "admin",
      client: () => signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD),
      thorough: true,
    },
    {
      name: "buyer",
      client: () => signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD),
      thorough: false,
    },
  ];
  const failures: string[] = [];
  let sent = 0;
  for (const identity of who) {
    let client = await identity.client();
    for (const [template, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const verb = method.toUpperCase() as "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
        if (identity.name !== "anonymous" && sessionEnding.has(`${verb} ${template}`)) continue;
        for (const variant of variants(template, operation, identity.thorough)) {
          const hasBody = verb !== "GET" && verb !== "DELETE";
          const res = await t.app.inject({
            method: verb,
            url: variant.url,
            remoteAddress: `10.77.${sent % 200}.${Math.floor(sent / 200) % 250}`,
            headers: {
              ...(client.jar.size > 0 ? { cookie: client.cookieHeader() } : {}),
              ...(hasBody ? { "content-type": "application/json" } : {}),
            },
            ...(hasBody
              ? {
                  payload:
                    variant.raw ?? JSON.stringify(variant.payload === undefined ? {} : variant.payload),
                }
              : {}),
          });
          sent++;
          if (res.statusCode >= 500) {
            failures.push(
              `${identity.name} ${verb} ${template} [${variant.label}] → ${res.statusCode} ${res.body.slice(0, 200)}`,
            );
          }
        }
        // A variant may have signed the fuzzer out (or disabled two-factor…): start again signed in.
        if (identity.name !== "anonymous" && (await client.get("/api/me")).statusCode !== 200) {
          client = await identity.client();
        }
      }
    }
  }
  expect(sent).toBeGreaterThan(500);
  expect(failures, failures.join("\n")).toEqual([]);
});
