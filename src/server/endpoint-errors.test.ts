import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "vite";
import { describe, expect, test } from "vitest";
import { allEndpoints } from "#domain/endpoints";
import { anyRouteErrorCodes, isServerErrorCode, type ServerErrorCode } from "#domain/error-codes";

/**
 * Decision 0023: each declaration's `errors` names exactly the codes its route can answer. The API tests
 * catch a code thrown but not declared only on the paths they take; this reads the server's source
 * instead. From each `route(app, key, options, handler)` it follows every name of a server function
 * the handler uses (called or passed on), across imports, and gathers the error codes written in those
 * functions (and in the classes and tables they name); `new NotFound("…")` without a code counts as
 * `NOT_FOUND`, and so on. Guards are in the route's options, not the handler, so their codes are not
 * gathered; nor are the codes any route may answer. What the reading cannot see is listed below, each
 * with its reason, and the list fails when an entry is no longer needed.
 */
const root = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Declared codes the reading cannot reach, by route. */
const answeredOutOfSight: Record<string, { codes: ServerErrorCode[]; why: string }> = {};
const betterAuth = "thrown by better-auth and translated by the error handler (src/server/auth/errors.ts)";
for (const [key, codes] of Object.entries({
  "POST /auth/sign-up": ["CODE_COOLDOWN"],
  "POST /auth/verify-email": ["CODE_EXPIRED", "INVALID_CODE", "TOO_MANY_ATTEMPTS"],
  "POST /auth/sign-in": ["INVALID_CREDENTIALS"],
  "POST /auth/two-factor": [
    "INVALID_TWO_FACTOR_CODE",
    "TOO_MANY_ATTEMPTS",
    "TWO_FACTOR_EXPIRED",
    "TWO_FACTOR_NOT_ENABLED",
  ],
  "POST /auth/password/reset": ["CODE_EXPIRED", "INVALID_CODE", "TOO_MANY_ATTEMPTS"],
  "POST /me/password": ["INVALID_PASSWORD"],
  "POST /me/two-factor/enable": ["INVALID_PASSWORD"],
  "POST /me/two-factor/confirm": ["INVALID_TWO_FACTOR_CODE", "TWO_FACTOR_NOT_ENABLED"],
  "POST /me/two-factor/disable": ["INVALID_PASSWORD", "TWO_FACTOR_NOT_ENABLED"],
  "DELETE /me": ["INVALID_PASSWORD"],
} as Record<string, ServerErrorCode[]>)) {
  answeredOutOfSight[key] = {
    codes,
    why: key === "POST /auth/sign-up" ? "thrown by the mail hook better-auth calls" : betterAuth,
  };
}
answeredOutOfSight["GET /metrics"] = {
  codes: ["NOT_FOUND"],
  why: "reply.callNotFound() hands the request to Fastify's not-found handler",
};

/**
 * Codes the reading reaches but the route cannot answer: a row just written or read under a lock in
 * the same transaction is missing only if the database broke its promise.
 */
const unreachable: Record<string, { codes: ServerErrorCode[]; why: string }> = {
  "POST /products/:id/questions": { codes: ["QUESTION_NOT_FOUND"], why: "rereads the question it inserted" },
  "POST /products/:id/reviews": { codes: ["REVIEW_NOT_FOUND"], why: "rereads the review it inserted" },
  "PUT /seller/storefront": {
    codes: ["STOREFRONT_NOT_FOUND"],
    why: "ensureStorefront made the storefront it then locks",
  },
  "POST /admin/storefront-changes/:slug/approve": {
    codes: ["STOREFRONT_NOT_FOUND"],
    why: "rereads the storefront it found and saved",
  },
  "POST /admin/storefront-changes/:slug/reject": {
    codes: ["STOREFRONT_NOT_FOUND"],
    why: "rereads the storefront it found and saved",
  },
  "POST /seller/v1/usage/batch": {
    codes: [
      "USAGE_CORRECTION_TOO_LARGE",
      "USAGE_NOT_METERED",
      "USAGE_OUT_OF_PERIOD",
      "USAGE_PERIOD_LIMIT",
      "USAGE_SUBSCRIPTION_NOT_FOUND",
      "USAGE_TOO_LATE",
    ],
    why: "a batch answers each refused record's code inside its 200 answer; only a single record is answered as an error",
  },
};

type Node = { type: string; [key: string]: unknown };
const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && typeof (value as Node).type === "string";
const functionLike = (node: Node) =>
  node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression";

/** Visits every node, except the names that are not references: `a.name` and `{ name: … }`'s key. */
function walk(node: Node, visit: (node: Node) => void) {
  visit(node);
  for (const [key, value] of Object.entries(node)) {
    if (node.type === "MemberExpression" && key === "property" && !node.computed) continue;
    if (node.type === "Property" && key === "key" && !node.computed) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, visit);
    } else if (isNode(value)) walk(value, visit);
  }
}

interface Source {
  file: string;
  ast: Node;
  /** Functions by name at any depth (a route plugin's helpers); other values only at the top level. */
  named: Map<string, Node[]>;
  /** A local name → the file and name it comes from (`*` for a namespace); re-exports too. */
  imports: Map<string, { file: string; name: string }>;
}

function resolveSpecifier(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("#server/")) base = path.join(root, "src/server", specifier.slice(8));
  else if (specifier.startsWith("#domain/")) base = path.join(root, "src/domain", specifier.slice(8));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  return base.endsWith(".ts") ? base : `${base}.ts`;
}

const owner = new Map<Node, string>();

function parse(file: string): Source {
  const ast = parseAst(readFileSync(file, "utf8"), { lang: "ts" }) as unknown as Node;
  const named = new Map<string, Node[]>();
  const imports = new Map<string, { file: string; name: string }>();
  const add = (name: string, node: Node) => {
    named.set(name, [...(named.get(name) ?? []), node]);
    owner.set(node, file);
  };
  walk(ast, (node) => {
    if (node.type === "FunctionDeclaration" && isNode(node.id)) add(node.id.name as string, node);
    if (node.type === "VariableDeclarator" && isNode(node.id) && node.id.type === "Identifier")
      if (isNode(node.init) && functionLike(node.init)) add(node.id.name as string, node.init);
  });
  for (const statement of ast.body as Node[]) {
    const declared =
      statement.type === "ExportNamedDeclaration" && isNode(statement.declaration)
        ? statement.declaration
        : statement;
    if (declared.type === "ClassDeclaration" && isNode(declared.id))
      add(declared.id.name as string, declared);
    if (declared.type === "VariableDeclaration")
      for (const item of declared.declarations as Node[])
        if (isNode(item.id) && item.id.type === "Identifier" && isNode(item.init) && !functionLike(item.init))
          add(item.id.name as string, item.init);
    if (
      statement.type === "ImportDeclaration" ||
      (statement.type === "ExportNamedDeclaration" && statement.source)
    ) {
      const from = resolveSpecifier(file, (statement.source as { value: string }).value);
      if (!from) continue;
      for (const spec of (statement.specifiers as Node[]) ?? []) {
        const local = (spec.local as { name: string }).name;
        if (spec.type === "ImportNamespaceSpecifier") imports.set(local, { file: from, name: "*" });
        else if (spec.type === "ImportSpecifier")
          imports.set(local, { file: from, name: (spec.imported as { name: string }).name });
        else if (spec.type === "ExportSpecifier")
          imports.set((spec.exported as { name: string }).name, { file: from, name: local });
      }
    }
  }
  return { file, ast, named, imports };
}

const sourcesUnder = (dir: string) =>
  readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts"))
    .map((name) => path.join(root, dir, name))
    .filter((file) => !file.includes(`${path.sep}server${path.sep}test${path.sep}`));

const sources = new Map<string, Source>();
for (const file of [...sourcesUnder("src/server"), ...sourcesUnder("src/domain")])
  sources.set(file, parse(file));

/** The typed errors themselves: their default codes count only where one is made without a code. */
const typedErrors = path.join(root, "src/server/errors.ts");
const defaultCodes: Record<string, ServerErrorCode> = {
  NotFound: "NOT_FOUND",
  Conflict: "CONFLICT",
  Forbidden: "FORBIDDEN",
  Unauthorized: "UNAUTHORIZED",
};

function resolve(file: string, name: string, depth = 0): Node[] {
  const source = sources.get(file);
  if (!source || file === typedErrors || depth > 5) return [];
  const own = source.named.get(name);
  if (own) return own;
  const imported = source.imports.get(name);
  return imported && imported.name !== "*" ? resolve(imported.file, imported.name, depth + 1) : [];
}

/** The error codes written in what `start` reaches. */
function reachable(file: string, start: Node): Set<string> {
  const codes = new Set<string>();
  const seen = new Set<Node>();
  const queue: { file: string; node: Node }[] = [{ file, node: start }];
  const follow = (at: string, name: string) => {
    for (const node of resolve(at, name)) queue.push({ file: owner.get(node) ?? at, node });
  };
  for (let next = queue.pop(); next; next = queue.pop()) {
    const { file: at, node } = next;
    if (seen.has(node)) continue;
    seen.add(node);
    walk(node, (inner) => {
      if (inner.type === "Literal" && isServerErrorCode(inner.value)) codes.add(inner.value);
      if (inner.type === "NewExpression" && isNode(inner.callee) && inner.callee.type === "Identifier") {
        const fallback = defaultCodes[inner.callee.name as string];
        if (fallback && (inner.arguments as Node[]).length < 2) codes.add(fallback);
      }
      if (inner.type === "Identifier") follow(at, inner.name as string);
      if (inner.type === "MemberExpression" && isNode(inner.object) && inner.object.type === "Identifier") {
        const namespace = sources.get(at)?.imports.get(inner.object.name as string);
        const property = inner.property as Node;
        if (namespace?.name === "*" && property.type === "Identifier")
          follow(namespace.file, property.name as string);
      }
    });
  }
  return codes;
}

/** Every `route(app, key, options, handler)`: a key written as a template stands for the keys it matches. */
function handlers(): Map<string, { file: string; handler: Node }[]> {
  const found = new Map<string, { file: string; handler: Node }[]>();
  const keys = Object.keys(allEndpoints);
  for (const source of sources.values()) {
    walk(source.ast, (node) => {
      if (node.type !== "CallExpression") return;
      const [, key, , handler] = node.arguments as Node[];
      const callee = node.callee as Node;
      if (callee.type !== "Identifier" || callee.name !== "route" || !key || !handler) return;
      let matches: string[] = [];
      if (key.type === "Literal" && typeof key.value === "string") matches = [key.value];
      if (key.type === "TemplateLiteral") {
        const parts = (key.quasis as { value: { cooked: string } }[]).map((quasi) =>
          quasi.value.cooked.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
        );
        const pattern = new RegExp(`^${parts.join("[^ /]+")}$`);
        matches = keys.filter((candidate) => pattern.test(candidate));
      }
      for (const match of matches)
        found.set(match, [...(found.get(match) ?? []), { file: source.file, handler }]);
    });
  }
  return found;
}

const anyRoute = new Set<string>(anyRouteErrorCodes);
const routes = handlers();
const declarations = Object.entries(allEndpoints).map(([key, declaration]) => ({
  key,
  declared: [...new Set<string>(declaration.errors)].filter((code) => !anyRoute.has(code)).sort(),
}));
const reach = new Map(
  [...routes].map(([key, found]) => [
    key,
    new Set(
      found.flatMap(({ file, handler }) => [...reachable(file, handler)]).filter((c) => !anyRoute.has(c)),
    ),
  ]),
);

describe("each declaration lists exactly the codes its route's code can answer", () => {
  test("every declared endpoint's handler is found", () => {
    expect(declarations.map(({ key }) => key).filter((key) => !routes.has(key))).toEqual([]);
  });

  test.each(declarations)("$key", ({ key, declared }) => {
    const found = reach.get(key) ?? new Set<string>();
    const outOfSight = new Set<string>(answeredOutOfSight[key]?.codes);
    const cannot = new Set<string>(unreachable[key]?.codes);
    const notReached = declared.filter((code) => !found.has(code) && !outOfSight.has(code));
    const notDeclared = [...found].filter((code) => !declared.includes(code) && !cannot.has(code)).sort();
    expect(notReached, `${key} declares codes its code never answers`).toEqual([]);
    expect(notDeclared, `${key} can answer codes its declaration does not list`).toEqual([]);
  });

  test("every exception above is still needed", () => {
    for (const [key, { codes }] of Object.entries(answeredOutOfSight)) {
      const declared = declarations.find((d) => d.key === key)?.declared ?? [];
      for (const code of codes) {
        expect(declared, `${key} no longer declares ${code}`).toContain(code);
        expect(reach.get(key)?.has(code), `${key} now reaches ${code}: drop the exception`).toBe(false);
      }
    }
    for (const [key, { codes }] of Object.entries(unreachable))
      for (const code of codes)
        expect(reach.get(key)?.has(code), `${key} no longer reaches ${code}`).toBe(true);
  });

  test("every declared code is written somewhere in the server's own source", () => {
    const written = new Set<string>();
    for (const source of sources.values())
      if (source.file.includes(`${path.sep}src${path.sep}server${path.sep}`))
        walk(source.ast, (node) => {
          if (node.type === "Literal" && isServerErrorCode(node.value)) written.add(node.value);
        });
    const declared = new Set(declarations.flatMap((d) => d.declared));
    expect([...declared].filter((code) => !written.has(code))).toEqual([]);
  });
});
