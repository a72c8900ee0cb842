import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { hasUnstorableText } from "#server/lib/hostile-input";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, payload: string | Buffer) =>
  t.app.inject({ method: "POST", url, headers: { "content-type": "application/json" }, payload });

const person = (overrides: Record<string, string>) =>
  JSON.stringify({
    firstName: "Ada",
    lastName: "Lovelace",
    email: "ada@example.com",
    password: "analytical-engine",
    accountType: "buyer",
    ...overrides,
  });

describe("hostile bytes are refused with 400 INVALID_INPUT before any handler", () => {
  test.each([
    ["NUL in a JSON string", () => post("/api/auth/sign-up", person({ firstName: "Ada\u0000" }))],
    ["NUL in a nested JSON string", () => post("/api/contact", JSON.stringify({ a: [{ b: "x\u0000" }] }))],
    ["NUL in a JSON key", () => post("/api/contact", JSON.stringify({ "a\u0000": "x" }))],
    ["a lone surrogate escape", () => post("/api/auth/sign-up", person({}).replace("Ada", "\\ud800"))],
    [
      "bytes that are not UTF-8",
      () =>
        post(
          "/api/auth/sign-up",
          Buffer.concat([
            Buffer.from(person({}).slice(0, 14)),
            Buffer.from([0xff, 0xc3, 0x28]),
            Buffer.from('"}'),
          ]),
        ),
    ],
    ["NUL in a query value", () => t.app.inject("/api/products?search=a%00b")],
    ["a query value that is not UTF-8", () => t.app.inject("/api/products?search=%FF%FE")],
    ["an encoded lone surrogate in a query value", () => t.app.inject("/api/products?search=%ED%A0%80")],
    ["NUL in a path parameter", () => t.app.inject("/api/pages/about%00")],
    ["NUL in a header", () => t.app.inject({ url: "/api/health", headers: { "x-anything": "a\u0000b" } })],
  ])("%s", async (_label, send) => {
    const res = await send();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "INVALID_INPUT", message: expect.any(String) });
  });

  test("ordinary text, emoji and JSON bodies still pass", async () => {
    expect((await t.app.inject("/api/products?search=caf%C3%A9%20%F0%9F%98%80")).statusCode).toBe(200);
    const res = await post("/api/auth/sign-up", person({ firstName: "Zoë 😀", email: "zoe@example.com" }));
    expect(res.statusCode).toBe(200);
    expect((await post("/api/auth/sign-up", '{"__proto__":{"x":1}}')).statusCode).toBe(400);
  });

  test("deeply nested bodies are walked without recursion", () => {
    let deep: unknown = "x\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(hasUnstorableText(deep)).toBe(true);
    expect(hasUnstorableText({ a: ["ok", { b: "fine 😀" }] })).toBe(false);
  });
});
