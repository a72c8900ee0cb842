import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Endpoint, methodAndPath } from "#domain/endpoint";
import { endpoints } from "#domain/endpoints";
import { createTestApp } from "#server/test/app";

/**
 * The web calls endpoints through their declarations in src/domain (decision 0023); the server still
 * registers its routes on its own. This keeps the two from drifting: every declaration names a route the
 * app registers, and that route answers success with exactly the declared answer (their JSON schemas, as
 * the OpenAPI document writes them, are equal).
 */

type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

let t: Awaited<ReturnType<typeof createTestApp>>;
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  t = await createTestApp();
  paths = (await t.app.inject({ url: "/api/openapi.json" })).json().paths;
});

afterAll(async () => {
  await t.close();
});

/** A declaration's schemas as the OpenAPI document writes a route's: body, query and response. */
function asOpenApi(declaration: Endpoint, url: string) {
  const { schema } = jsonSchemaTransform({
    schema: {
      ...(declaration.answer ? { response: { 200: declaration.answer } } : {}),
      ...(declaration.body && declaration.body !== "multipart" ? { body: declaration.body } : {}),
      ...(declaration.query ? { querystring: declaration.query } : {}),
    },
    url,
    route: { url, method: "GET" },
    openapiObject: { openapi: "3.0.3" },
  } as unknown as Parameters<typeof jsonSchemaTransform>[0]) as {
    schema: { response?: Record<string, unknown>; body?: unknown; querystring?: { properties?: object } };
  };
  return JSON.parse(JSON.stringify(schema)) as typeof schema;
}

describe("every endpoint declaration matches a registered route", () => {
  const all = Object.entries(endpoints);

  test.each(all)("%s", (key, declaration: Endpoint) => {
    const { method, path } = methodAndPath(key);
    const url = `/api${path.replace(/:(\w+)/g, "{$1}")}`;
    const operation = paths[url]?.[method.toLowerCase()];
    expect(operation, `${method} ${url} is not registered`).toBeDefined();
    const expected = asOpenApi(declaration, url);
    const named = (where: string) =>
      (operation?.parameters ?? [])
        .filter((p) => p.in === where)
        .map((p) => p.name)
        .sort();
    expect(named("path"), `${key}'s params`).toEqual(
      [...path.matchAll(/:(\w+)/g)].map((match) => match[1]).sort(),
    );
    expect(named("query"), `${key}'s query`).toEqual(
      Object.keys(expected.querystring?.properties ?? {}).sort(),
    );
    if (declaration.body === "multipart")
      expect(operation?.requestBody, `${key} takes a file`).toBeUndefined();
    else
      expect(operation?.requestBody?.content?.["application/json"]?.schema, `${key}'s body`).toEqual(
        expected.body,
      );
    const successes = Object.entries(operation?.responses ?? {}).filter(([status]) => status.startsWith("2"));
    expect(successes.length, `${key} has a success answer`).toBeGreaterThan(0);
    for (const [status, response] of successes) {
      if (declaration.answer === null) {
        expect(status, `${key} answers 204 without a body`).toBe("204");
        continue;
      }
      const served = response.content?.["application/json"]?.schema;
      expect(served, `${key}'s ${status} answer`).toEqual(expected.response?.[200]);
    }
  });
});
