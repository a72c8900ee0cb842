import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Endpoint, methodAndPath } from "#domain/endpoint";
import { allEndpoints } from "#domain/endpoints";
import { errorStatus } from "#domain/error-codes";
import { undeclaredError } from "#server/app";
import { Conflict, NotFound, Unauthorized } from "#server/errors";
import { refuseUndeclaredRoutes } from "#server/http/route";
import { createTestApp } from "#server/test/app";

/**
 * Every route is registered from its declaration in src/domain (decision 0023, `route` in
 * src/server/http/route.ts), so its method, path, schemas and answers cannot drift from what the web
 * calls. What is left to check: that every declaration is served and every served operation declared,
 * that the OpenAPI document lists each route's error answers, and that a test server refuses an error
 * code a route's declaration does not name.
 */

type Operation = { responses?: Record<string, { description?: string }> };

let t: Awaited<ReturnType<typeof createTestApp>>;
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.app.inject({ url: "/api/openapi.json" })).json().paths;
});

afterAll(async () => {
  await t.close();
});

const documented = Object.entries(allEndpoints).filter(([, declaration]) => !("root" in declaration));
/** Where the OpenAPI document lists a declared endpoint: `/api/orders/{id}` and the method. */
const urlOf = (key: string) => {
  const { method, path } = methodAndPath(key);
  return { url: `/api${path.replace(/:(\w+)/g, "{$1}")}`, method: method.toLowerCase() };
};
const operationOf = (key: string) => {
  const { url, method } = urlOf(key);
  return paths[url]?.[method];
};

describe("the API serves exactly the declared endpoints", () => {
  test("an API route registered without its declaration stops the app from starting", async () => {
    const app = Fastify();
    refuseUndeclaredRoutes(app);
    app.get("/api/docs/page", { schema: { hide: true } }, async () => "documentation");
    app.get("/sitemap.xml", async () => "not under /api");
    expect(() => app.get("/api/undeclared", async () => ({ ok: true }))).toThrow(
      "GET /api/undeclared is not registered from a declaration (route())",
    );
    await app.close();
  });

  test("every operation of the OpenAPI document is declared", () => {
    const declared = new Set(documented.map(([key]) => Object.values(urlOf(key)).join(" ")));
    const served = Object.entries(paths).flatMap(([url, operations]) =>
      Object.keys(operations).map((method) => `${url} ${method}`),
    );
    expect(served.filter((operation) => !declared.has(operation))).toEqual([]);
  });

  test.each(documented)("%s is served and lists its error answers", (key, declaration: Endpoint) => {
    const operation = operationOf(key);
    expect(operation, `${key} is not registered`).toBeDefined();
    const responses = operation?.responses ?? {};
    for (const code of declaration.errors) {
      const status = String(errorStatus[code]);
      expect(responses[status]?.description, `${key} documents ${code} under ${status}`).toContain(code);
    }
    expect(responses["500"]?.description).toContain("INTERNAL_ERROR");
    if (declaration.params || declaration.query || declaration.body) {
      expect(responses["400"]?.description, `${key} documents its validation`).toContain("VALIDATION_ERROR");
    }
  });
});

describe("the OpenAPI document's error answers", () => {
  test("a guarded, rate-limited write lists its own codes and those of its guard and limit", () => {
    const responses = operationOf("POST /orders")?.responses ?? {};
    expect(responses["401"]?.description).toBe("UNAUTHORIZED");
    expect(responses["403"]?.description).toBe("FORBIDDEN_ORIGIN");
    expect(responses["409"]?.description).toBe(
      "INVALID_ORDER_TRANSITION, ORDER_CANCELLED, PRICE_CHANGED, PRODUCT_UNAVAILABLE, TRIAL_NOT_OFFERED, TRIAL_USED",
    );
    expect(responses["400"]?.description).toBe(
      "SEATS_OUT_OF_RANGE, SHIPPING_ADDRESS_REQUIRED, TRIAL_NEEDS_CARD, VALIDATION_ERROR",
    );
    expect(responses["429"]?.description).toBe("RATE_LIMITED");
    expect(responses["503"]?.description).toBe("SERVICE_BUSY");
  });

  test("an admin read lists the guard's 401 and 403 and its not-found code, and no write or limit codes", () => {
    const responses = operationOf("GET /admin/payouts/batches/:id")?.responses ?? {};
    expect(responses["401"]?.description).toBe("UNAUTHORIZED");
    expect(responses["403"]?.description).toBe("FORBIDDEN");
    expect(responses["404"]?.description).toContain("PAYOUT_BATCH_NOT_FOUND");
    expect(responses["429"]).toBeUndefined();
  });

  test("an error answer is the error body", async () => {
    const doc = (await t.app.inject({ url: "/api/openapi.json" })).json();
    const answer = doc.paths["/api/orders/{id}"].get.responses["404"].content["application/json"].schema;
    expect(answer.required).toEqual(["code", "message"]);
    expect(Object.keys(answer.properties)).toEqual(["code", "message", "details"]);
  });
});

describe("a test server refuses an error its route does not declare", () => {
  const config = { endpoint: "GET /orders/:id" } as const;

  test("a declared code, or one any route may answer, passes", () => {
    expect(undeclaredError(config, new NotFound("Order not found.", "ORDER_NOT_FOUND"))).toBeNull();
    expect(undeclaredError(config, new Unauthorized())).toBeNull();
    expect(undeclaredError({}, new Conflict("Prices changed.", "PRICE_CHANGED"))).toBeNull();
  });

  test("a code the declaration does not name is reported", () => {
    expect(undeclaredError(config, new Conflict("Prices changed.", "PRICE_CHANGED"))).toBe(
      "GET /orders/:id answered PRICE_CHANGED, which its declaration does not list: add it to its errors in src/domain/endpoints",
    );
  });

  test("a code answered with another status than its own is reported", () => {
    expect(undeclaredError(config, new NotFound("Prices changed.", "PRICE_CHANGED"))).toBe(
      "PRICE_CHANGED was answered with 404, but errorStatus says 409",
    );
  });
});
