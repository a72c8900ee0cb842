import { execSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseAst } from "rolldown/parseAst";
import { twMerge } from "tailwind-merge";
import { expect, test } from "vitest";
import { mergeClasses } from "#web/lib/class-merge";

// `cn` resolves conflicting Tailwind classes with `mergeClasses`, a small copy of tailwind-merge's algorithm
// over the utility groups this app writes (decision 0025). These tests hold it to tailwind-merge's answer on
// what the app can actually produce, so that no page draws differently from when tailwind-merge ran in the
// browser: a class of a group `mergeClasses` does not know fails here, not on a page. Lists are compared as
// sets: a class written twice is the same class (tailwind-merge drops the copy of a class it knows).
const same = (classes: string) => [...new Set(classes.split(/\s+/).filter(Boolean))].sort().join(" ");

const files = execSync("git ls-files 'src/web/*.tsx' 'src/web/*.ts'", { cwd: process.cwd() })
  .toString()
  .trim()
  .split("\n")
  .filter((file) => !file.includes(".test."));
// biome-ignore lint/suspicious/noExplicitAny: an ESTree walk over every node type
type N = any;
const asts = new Map<string, { ast: N; text: string }>();
for (const f of files) {
  const text = readFileSync(f, "utf8");
  asts.set(f, { ast: parseAst(text, { lang: f.endsWith("x") ? "tsx" : "ts" }, f), text });
}

/** Every class (without its variants) that reaches `cn`, from the class lists the first test walks. */
const written = new Set<string>();

/**
 * Both tests walk everything the app writes (a second or two each on an idle machine): on a CI machine
 * busy with the API tests beside them, more than the default five seconds.
 */
const WALK = { timeout: 30_000 };

test(
  "every class list a `cn` call can make, with what its callers pass as className, merges as tailwind-merge merges it",
  WALK,
  () => {
    const EXT = "\u0000EXT";
    const UNKNOWN = "\u0000UNK";
    const lineOf = (f: string, pos: number) => asts.get(f)!.text.slice(0, pos).split("\n").length;
    function walk(n: N, visit: (n: N, parents: N[]) => void, parents: N[] = []) {
      if (!n || typeof n !== "object") return;
      if (Array.isArray(n)) {
        for (const c of n) walk(c, visit, parents);
        return;
      }
      if (typeof n.type === "string") visit(n, parents);
      const next = typeof n.type === "string" ? [...parents, n] : parents;
      for (const k of Object.keys(n)) if (k !== "parent" && typeof n[k] === "object") walk(n[k], visit, next);
    }
    const consts = new Map<string, N>();
    const cvaDefs = new Map<string, string[]>();
    const cvaStructs = new Map<
      string,
      { base: string[]; variants: Map<string, Map<string, string[]>>; defaults: Map<string, string> }
    >();
    const CVA = "\u0000CVA:";
    const calleeName = (c: N) =>
      c.type === "Identifier" ? c.name : c.type === "MemberExpression" ? c.property?.name : "?";
    function combine(args: string[][]): string[] {
      let alts = [""];
      for (const a of args) {
        const next: string[] = [];
        for (const x of alts) for (const y of a) next.push(`${x} ${y}`.trim());
        alts = [...new Set(next)].slice(0, 2048);
      }
      return alts;
    }
    function strings(e: N, file: string, depth = 0): string[] {
      if (!e || depth > 10) return [UNKNOWN];
      switch (e.type) {
        case "ParenthesizedExpression":
        case "TSAsExpression":
        case "TSSatisfiesExpression":
          return strings(e.expression, file, depth + 1);
        case "Literal":
          return typeof e.value === "string"
            ? [e.value]
            : e.value === null || e.value === false
              ? [""]
              : [UNKNOWN + String(e.value)];
        case "TemplateLiteral": {
          let alts = [e.quasis[0].value.cooked];
          e.expressions.forEach((x: N, i: number) => {
            const inner = strings(x, file, depth + 1).map((s) => (s.startsWith(UNKNOWN) ? "" : s));
            const next: string[] = [];
            for (const a of alts) for (const s of inner) next.push(a + s + e.quasis[i + 1].value.cooked);
            alts = next.slice(0, 256);
          });
          return alts;
        }
        case "LogicalExpression":
          if (e.operator === "&&") return ["", ...strings(e.right, file, depth + 1)];
          return [...strings(e.left, file, depth + 1), ...strings(e.right, file, depth + 1)];
        case "ConditionalExpression":
          return [...strings(e.consequent, file, depth + 1), ...strings(e.alternate, file, depth + 1)];
        case "Identifier": {
          if (e.name === "className") return [EXT];
          if (e.name === "undefined") return [""];
          const c = consts.get(`${file}:${e.name}`);
          return c ? strings(c, file, depth + 1) : [UNKNOWN + e.name];
        }
        case "MemberExpression": {
          if (!e.computed && e.property.name === "className") return [EXT];
          const obj = e.object.type === "Identifier" ? consts.get(`${file}:${e.object.name}`) : e.object;
          if (obj?.type === "ObjectExpression")
            return obj.properties.flatMap((p: N) =>
              p.type === "Property" ? strings(p.value, file, depth + 1) : [UNKNOWN],
            );
          return [`${UNKNOWN}member`];
        }
        case "CallExpression": {
          const name = calleeName(e.callee);
          if (name === "cn" || name === "clsx")
            return combine(e.arguments.map((a: N) => strings(a, file, depth + 1)));
          if (cvaDefs.has(name)) return cvaDefs.get(name)!;
          return [`${UNKNOWN}${name}()`];
        }
        case "ArrayExpression":
          return combine(e.elements.map((a: N) => strings(a, file, depth + 1)));
        default:
          return [UNKNOWN + e.type];
      }
    }
    for (const [file, { ast }] of asts)
      walk(ast, (n) => {
        if (n.type === "VariableDeclarator" && n.id.type === "Identifier" && n.init)
          consts.set(`${file}:${n.id.name}`, n.init);
      });
    for (const [file, { ast }] of asts)
      walk(ast, (n) => {
        if (
          n.type === "VariableDeclarator" &&
          n.init?.type === "CallExpression" &&
          calleeName(n.init.callee) === "cva"
        ) {
          const [base, cfg] = n.init.arguments;
          let alts = strings(base, file);
          const struct = {
            base: alts,
            variants: new Map<string, Map<string, string[]>>(),
            defaults: new Map<string, string>(),
          };
          const variants = cfg?.properties?.find((p: N) => p.key?.name === "variants");
          for (const v of variants?.value?.properties ?? []) {
            alts = combine([alts, v.value.properties.flatMap((p: N) => strings(p.value, file))]);
            struct.variants.set(
              v.key.name,
              new Map(v.value.properties.map((p: N) => [p.key.name ?? p.key.value, strings(p.value, file)])),
            );
          }
          const defaults = cfg?.properties?.find((p: N) => p.key?.name === "defaultVariants");
          for (const d of defaults?.value?.properties ?? []) struct.defaults.set(d.key.name, d.value.value);
          cvaDefs.set(n.id.name, alts);
          cvaStructs.set(n.id.name, struct);
        }
      });
    const problems = new Map<string, string[]>();
    let lists = 0;

    const check = (where: string, alts: string[]) => {
      for (const a of alts) {
        if (a.includes(UNKNOWN)) continue;
        lists++;
        for (const word of a.split(/\s+/)) if (word) written.add(word.slice(word.lastIndexOf(":") + 1));
        const theirs = twMerge(a);
        const ours = mergeClasses(a);
        if (ours !== theirs)
          (problems.get(where) ?? problems.set(where, []).get(where)!).push(
            `${a}\n  ours:   ${ours}\n  theirs: ${theirs}`,
          );
      }
    };
    const components = new Map<string, { where: string; alts: string[]; raw: string[][] }[]>();
    const unknowns: string[] = [];
    for (const [file, { ast }] of asts)
      walk(ast, (n, parents) => {
        if (n.type !== "CallExpression" || calleeName(n.callee) !== "cn") return;
        if (parents.some((p) => p.type === "CallExpression" && calleeName(p.callee) === "cn")) return;
        const where = `${file}:${lineOf(file, n.start)}`;
        const args = n.arguments.map((a: N) => strings(a, file));
        for (const a of args)
          for (const s of a) if (s.includes(UNKNOWN)) unknowns.push(`${where} ${s.replaceAll(UNKNOWN, "?")}`);
        const alts = combine(args);
        check(
          where,
          alts.map((a) => a.replace(EXT, "")),
        );
        if (!alts.some((a) => a.includes(EXT))) return;
        for (let i = parents.length - 1; i >= 0; i--) {
          const p = parents[i];
          const name =
            p.type === "FunctionDeclaration"
              ? p.id?.name
              : p.type === "VariableDeclarator"
                ? p.id?.name
                : null;
          if (name && /^[A-Z]/.test(name)) {
            const raw = n.arguments.map((a: N) =>
              a.type === "CallExpression" && cvaStructs.has(calleeName(a.callee))
                ? [CVA + calleeName(a.callee)]
                : strings(a, file).map((x) => x.replace(EXT, "")),
            );
            (components.get(name) ?? components.set(name, []).get(name)!).push({
              where,
              alts: alts.map((a) => a.replace(EXT, "")),
              raw,
            });
            break;
          }
        }
      });
    let callerSites = 0;
    for (const [file, { ast }] of asts)
      walk(ast, (n) => {
        if (n.type !== "JSXOpeningElement") return;
        const tag = n.name.type === "JSXMemberExpression" ? n.name.property.name : n.name.name;
        const defs = components.get(tag);
        const attr = n.attributes.find((a: N) => a.type === "JSXAttribute" && a.name.name === "className");
        if (!defs || !attr?.value) return;
        callerSites++;
        const where = `${file}:${lineOf(file, n.start)} <${tag}>`;
        const caller =
          attr.value.type === "Literal" ? [attr.value.value] : strings(attr.value.expression, file);
        for (const s of caller)
          if (s.includes(UNKNOWN)) unknowns.push(`${where} className ${s.replaceAll(UNKNOWN, "?")}`);
        const attrValue = (key: string): string[] | null => {
          const a = n.attributes.find((x: N) => x.type === "JSXAttribute" && x.name.name === key);
          if (!a) return null;
          if (a.value?.type === "Literal") return [a.value.value];
          if (a.value?.type === "JSXExpressionContainer") {
            const v = strings(a.value.expression, file);
            return v.some((x) => x.includes(UNKNOWN)) ? ["*"] : v;
          }
          return ["*"];
        };
        for (const d of defs) {
          const args = d.raw.map((arg) => {
            const [only] = arg;
            const struct =
              arg.length === 1 && only?.startsWith(CVA) ? cvaStructs.get(only.slice(CVA.length)) : null;
            if (!struct) return arg;
            const parts = [struct.base];
            for (const [key, values] of struct.variants) {
              const chosen = attrValue(key) ?? [struct.defaults.get(key) ?? ""];
              parts.push(
                chosen.includes("*")
                  ? [...values.values()].flat()
                  : chosen.flatMap((c) => values.get(c) ?? [""]),
              );
            }
            return combine(parts);
          });
          check(`${where} over ${d.where}`, combine([...args, caller]));
        }
      });

    expect(lists).toBeGreaterThan(500);
    expect(callerSites).toBeGreaterThan(200);
    expect([...problems].map(([where, list]) => `${where}: ${list[0]}`).slice(0, 10)).toEqual([]);
    // Parts of a class list the walk could not read (a computed class name) are checked by neither test.
    expect(unknowns.length).toBeLessThanOrEqual(2);
  },
);

test("every two classes that reach `cn` merge as tailwind-merge merges them, in either order", WALK, () => {
  // Tailwind's own classes: tailwind-merge keeps one of two copies of a class it knows.
  const bases = [...written].filter((w) => twMerge(`${w} ${w}`) === w);
  expect(bases.length).toBeGreaterThan(300);
  const wrong: string[] = [];
  for (const a of bases)
    for (const b of bases) {
      const pair = `${a} ${b}`;
      if (same(mergeClasses(pair)) !== same(twMerge(pair)))
        wrong.push(`${pair} -> ${twMerge(pair)}, not ${mergeClasses(pair)}`);
    }
  expect(wrong.slice(0, 200)).toEqual([]);
});
