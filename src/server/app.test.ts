import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isServerErrorCode } from "#domain/error-codes";
import { createTestApp } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("error shape", () => {
  test("an unknown API route answers 404 with { code, message }", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "NOT_FOUND", message: "No route for GET /api/nope." });
  });

  test("a body that fails its schema answers 400 VALIDATION_ERROR with the field's message and details", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: "not-an-email" },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toContain("Please enter a valid email address");
    expect(body.details).toEqual([
      expect.objectContaining({ path: "email", message: "Please enter a valid email address" }),
    ]);
  });

  test("malformed JSON is a 400 in the same shape, not a 500", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      headers: { "content-type": "application/json" },
      payload: "{bad",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });

  test("Fastify's own refusals answer a code that src/domain/error-codes.ts declares", async () => {
    const refusals = [
      { "content-type": "application/json", payload: "{bad" },
      { "content-type": "application/json", payload: "" },
      { "content-type": "text/plain", payload: "hello" },
      { "content-type": "application/json", payload: JSON.stringify({ email: "x".repeat(1_100_000) }) },
    ];
    for (const { payload, ...headers } of refusals) {
      const res = await t.app.inject({ method: "POST", url: "/api/newsletter", headers, payload });
      expect(res.statusCode, headers["content-type"]).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      const { code } = res.json();
      expect(isServerErrorCode(code), `${code} is declared`).toBe(true);
    }
  });

  test("every response carries a request id and security headers", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });
});

describe("cache-control", () => {
  test("answers about the signed-in person are private, no-store without each route saying so", async () => {
    const { email, password } = await createVerifiedAccount(t.app, t.dataDir, { email: "cache@example.com" });
    const me = await signedInClient(t.app, email, password);
    for (const url of ["/api/me", "/api/saved", "/api/faq/votes"]) {
      const res = await me.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"], url).toBe("private, no-store");
    }
    const stranger = await t.app.inject({ method: "GET", url: "/api/saved" });
    expect(stranger.statusCode).toBe(401);
    expect(stranger.headers["cache-control"]).toBe("private, no-store");
  });

  test("a public catalogue answer keeps its own header", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/products" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });
});

describe("OpenAPI", () => {
  test("the document lists the API's routes and the docs UI is served", async () => {
    const doc = (await t.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/api/health", "/api/me", "/api/newsletter"]),
    );
    const ui = await t.app.inject({ method: "GET", url: "/api/docs/" });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers["content-type"]).toContain("text/html");
  });
});

describe("server errors", () => {
  test("a failure deep in a handler answers 500 with a hidden message and the request id", async () => {
    const broken = await createTestApp();
    // Break the database under a route that needs it.
    await broken.app.database.close();
    const res = await broken.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: "a@b.co" },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.code).toBe("INTERNAL_ERROR");
    expect(body.message).toContain(res.headers["x-request-id"]);
    expect(body.message).not.toMatch(/pglite|closed|sql/i);
    broken.app.database.close = async () => {};
    await broken.close();
  });
});

describe("origin of writes", () => {
  const write = (headers: Record<string, string>) =>
    t.app.inject({
      method: "POST",
      url: "/api/newsletter",
      payload: { email: "origin@example.com" },
      headers,
    });

  test("a write from the public origin (PUBLIC_URL's scheme, host and port) is accepted", async () => {
    expect((await write({ origin: "http://127.0.0.1:3000" })).statusCode).toBe(200);
  });

  test("a write without Origin (a non-browser client) keeps working", async () => {
    expect((await write({})).statusCode).toBe(200);
  });

  test.each([
    ["another site naming itself as Host", { host: "evil.test", origin: "http://evil.test" }],
    ["another port", { origin: "http://127.0.0.1:3001" }],
    ["another scheme", { origin: "https://127.0.0.1:3000" }],
    ["another host on the same port", { host: "127.0.0.1:3000", origin: "http://localhost:3000" }],
    ["an opaque origin", { origin: "null" }],
  ])("a write from %s is refused with 403", async (_label, headers) => {
    const res = await write(headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe("FORBIDDEN_ORIGIN");
  });
});
