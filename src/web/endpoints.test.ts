import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, expectTypeOf, test } from "vitest";
import type { z } from "zod";
import type { productDetailSchema, productListSchema } from "#domain/catalog-schemas";
import type { Endpoints } from "#domain/endpoints";
import type { getProducts } from "#web/features/catalog/api/get-products";
import { type CallAnswer, type CallInput, call } from "#web/lib/api";

/**
 * The web reaches the API only through `call` and the declarations in src/domain (decision 0023). The type
 * checks below are compiled by `tsc --noEmit`: an answer, params or body that does not match its
 * declaration stops the build.
 */

type Declared<K extends keyof Endpoints> = Endpoints[K]["answer"] extends z.ZodType
  ? z.output<Endpoints[K]["answer"]>
  : null;

/** For every declared endpoint: what `call` answers is the declared answer schema's type. */
type Mismatched = {
  [K in keyof Endpoints]: [CallAnswer<K>] extends [Declared<K>]
    ? [Declared<K>] extends [CallAnswer<K>]
      ? never
      : K
    : K;
}[keyof Endpoints];

describe("call's types come from the declarations", () => {
  test("every endpoint answers its declared schema's type", () => {
    expectTypeOf<Mismatched>().toEqualTypeOf<never>();
    expectTypeOf<CallAnswer<"GET /products/:id">>().toEqualTypeOf<z.infer<typeof productDetailSchema>>();
    expectTypeOf<Awaited<ReturnType<typeof getProducts>>>().toEqualTypeOf<
      z.infer<typeof productListSchema>
    >();
  });

  test("a fetcher that claims another answer, or sends the wrong input, does not compile", () => {
    // Never run: only compiled.
    const typesOnly = () => {
      // @ts-expect-error the product detail is not a list of categories
      const wrong: Promise<{ slug: string }[]> = call("GET /products/:id", { params: { id: "p" } });
      // @ts-expect-error the path's :id is required
      void call("GET /products/:id");
      // @ts-expect-error the path has no :slug
      void call("GET /products/:id", { params: { slug: "p" } });
      // @ts-expect-error no such endpoint
      void call("GET /product");
      return wrong;
    };
    expectTypeOf<CallInput<"GET /products/:id">>().toEqualTypeOf<{ params: { id: string } }>();
    expect(typesOnly).toBeTypeOf("function");
  });
});

const web = path.resolve(fileURLToPath(new URL(".", import.meta.url)));

function webFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

describe("no fetcher bypasses the declarations", () => {
  test("no file in src/web calls `api<T>(…)` (an unchecked cast); fetchers use `call`", () => {
    const casts = webFiles(web)
      .filter((file) => file !== path.join(web, "lib", "api.ts"))
      .filter((file) => /\bapi<|\bapi\(/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(web, file));
    expect(casts).toEqual([]);
  });

  test("the declarations reach src/web as types only, so neither zod nor a schema is bundled for them", () => {
    const valueImports = webFiles(web)
      .filter((file) =>
        /^import (?!type )[^;]*from "#domain\/endpoints?(\/[\w-]+)?";/m.test(readFileSync(file, "utf8")),
      )
      .map((file) => path.relative(web, file));
    expect(valueImports).toEqual([]);
  });
});
