/**
 * Resolves Tailwind classes that set the same thing, the later one winning: `cn("px-4 text-sm", "px-2")` is
 * "text-sm px-2". It is tailwind-merge's algorithm over the utility groups this app writes (a component's
 * defaults overridden through `className`: sizes, colours, spacing, borders, corners, display), in a few
 * hundred bytes instead of its 8 KB gzip table of every Tailwind utility (decision 0025).
 * `class-merge.test.ts` checks it against tailwind-merge on every pair of classes the app's source writes
 * and on every class list its `cn` calls can make: a class of a group not listed here fails that test.
 */

/** Order matters: the first pattern that matches a class (modifiers and a leading `-` removed) names its group. */
const groups: [RegExp, string | ((match: RegExpMatchArray) => string)][] = [
  [
    /^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|contents|flow-root|list-item|hidden|table)$/,
    "display",
  ],
  [/^(static|fixed|absolute|relative|sticky)$/, "position"],
  [/^(sr-only|not-sr-only)$/, "sr"],
  [/^(visible|invisible|collapse)$/, "visibility"],
  [/^(truncate|text-ellipsis|text-clip)$/, "text-overflow"],
  [/^text-(xs|sm|base|lg|\d?xl|\[\d[^\]]*(px|rem|em)\])$/, "font-size"],
  [/^text-(left|center|right|justify|start|end)$/, "text-align"],
  [/^text-(wrap|nowrap|balance|pretty)$/, "text-wrap"],
  [/^text-/, "text-color"],
  [/^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/, "font-weight"],
  [/^font-(sans|serif|mono)$/, "font-family"],
  [/^(underline|overline|line-through|no-underline)$/, "text-decoration"],
  [/^(italic|not-italic)$/, "font-style"],
  [/^(uppercase|lowercase|capitalize|normal-case)$/, "text-transform"],
  [/^break-(normal|words|all|keep)$/, "break"],
  [/^list-(disc|decimal|none|\[.+\])$/, "list-style-type"],
  [/^object-(contain|cover|fill|none|scale-down)$/, "object-fit"],
  // Groups named after their prefix (`px-4`, `min-h-32`, `gap-x-2`).
  [
    /^(p[xytrblse]?|m[xytrblse]?|size|min-w|min-h|max-w|max-h|w|h|inset-x|inset-y|inset|top|right|bottom|left|start|end|gap-x|gap-y|gap|space-x|space-y|grid-cols|grid-rows|col-span|col-start|col-end|row-span|row-start|row-end|aspect|translate-[xyz]|leading|tracking|opacity|items|self|basis|whitespace|overflow-x|overflow-y|overflow|z|cursor|animate|ring-offset|outline-offset)-/,
    (m) => m[1] as string,
  ],
  [/^border(?:-([xytrblse]))?(?:-(\d+|\[\d[^\]]*\]))?$/, (m) => (m[1] ? `border-w-${m[1]}` : "border-w")],
  [/^border-(solid|dashed|dotted|double|hidden|none)$/, "border-style"],
  [/^border-(collapse|separate)$/, "border-collapse"],
  [/^border-([xytrblse])-/, (m) => `border-color-${m[1]}`],
  [/^border-/, "border-color"],
  [
    /^rounded(?:-(tl|tr|br|bl|ss|se|ee|es|t|r|b|l|s|e)(?=-|$))?/,
    (m) => (m[1] ? `rounded-${m[1]}` : "rounded"),
  ],
  [/^shadow(-(2xs|xs|sm|md|lg|xl|2xl|none))?$/, "shadow"],
  [/^shadow-/, "shadow-color"],
  [/^ring(-\d+)?$/, "ring-w"],
  [/^ring-/, "ring-color"],
  [/^outline(-\d+)?$/, "outline-w"],
  [/^outline-(none|solid|dashed|dotted|double|hidden)$/, "outline-style"],
  [/^outline-/, "outline-color"],
  [/^bg-/, "bg-color"],
  [/^justify-(start|end|center|between|around|evenly|stretch|normal|baseline)$/, "justify-content"],
  [/^flex-(row|col|row-reverse|col-reverse)$/, "flex-direction"],
  [/^flex-(wrap|wrap-reverse|nowrap)$/, "flex-wrap"],
  [/^flex-/, "flex"],
  [/^shrink(-\d+)?$/, "shrink"],
  [/^grow(-\d+)?$/, "grow"],
  [/^transition(-|$)/, "transition"],
];

/** Groups whose class also removes an earlier one of these groups (`p-2` after `px-4`, `size-8` after `h-10`). */
const conflicts: Record<string, string[]> = {
  p: ["px", "py", "pt", "pr", "pb", "pl", "ps", "pe"],
  px: ["pr", "pl", "ps", "pe"],
  py: ["pt", "pb"],
  m: ["mx", "my", "mt", "mr", "mb", "ml", "ms", "me"],
  mx: ["mr", "ml", "ms", "me"],
  my: ["mt", "mb"],
  size: ["w", "h"],
  "font-size": ["leading"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left", "start", "end"],
  "inset-x": ["right", "left", "start", "end"],
  "inset-y": ["top", "bottom"],
  gap: ["gap-x", "gap-y"],
  flex: ["basis", "grow", "shrink"],
  overflow: ["overflow-x", "overflow-y"],
  rounded: ["t", "r", "b", "l", "s", "e", "tl", "tr", "br", "bl", "ss", "se", "ee", "es"].map(
    (c) => `rounded-${c}`,
  ),
  "rounded-t": ["rounded-tl", "rounded-tr"],
  "rounded-r": ["rounded-tr", "rounded-br"],
  "rounded-b": ["rounded-br", "rounded-bl"],
  "rounded-l": ["rounded-tl", "rounded-bl"],
  "rounded-s": ["rounded-ss", "rounded-es"],
  "rounded-e": ["rounded-se", "rounded-ee"],
  ...sided("border-w"),
  ...sided("border-color"),
};

function sided(group: string): Record<string, string[]> {
  return {
    [group]: ["x", "y", "t", "r", "b", "l", "s", "e"].map((side) => `${group}-${side}`),
    [`${group}-x`]: ["r", "l", "s", "e"].map((side) => `${group}-${side}`),
    [`${group}-y`]: ["t", "b"].map((side) => `${group}-${side}`),
  };
}

function groupOf(base: string): string | null {
  const name = base.startsWith("-") ? base.slice(1) : base;
  for (const [pattern, group] of groups) {
    const match = name.match(pattern);
    if (match) return typeof group === "string" ? group : group(match);
  }
  return null;
}

const orderSensitive = new Set([
  "*",
  "**",
  "after",
  "backdrop",
  "before",
  "details-content",
  "file",
  "first-letter",
  "first-line",
  "marker",
  "placeholder",
  "selection",
]);

/** A class's variants (`dark:hover:`) in a canonical order: the same variants written in another order are the same. */
function variantKey(variants: string[]): string {
  const sorted: string[] = [];
  let run: string[] = [];
  for (const variant of variants) {
    // Arbitrary variants (`[&_svg]:`) and pseudo-elements apply in the order written: they stay in place.
    if (variant.startsWith("[") || orderSensitive.has(variant)) {
      sorted.push(...run.sort(), variant);
      run = [];
    } else run.push(variant);
  }
  sorted.push(...run.sort());
  return sorted.join(":");
}

/** Splits `dark:hover:bg-accent` into its variants and base, ignoring colons inside brackets. */
function parse(className: string): { variants: string[]; base: string } {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < className.length; i++) {
    const char = className[i];
    if (char === "[") depth++;
    else if (char === "]") depth--;
    else if (char === ":" && depth === 0) {
      parts.push(className.slice(start, i));
      start = i + 1;
    }
  }
  return { variants: parts, base: className.slice(start) };
}

export function mergeClasses(classList: string): string {
  const taken = new Set<string>();
  const kept: string[] = [];
  const classes = classList.split(/\s+/).filter(Boolean);
  for (let i = classes.length - 1; i >= 0; i--) {
    const className = classes[i] as string;
    const { variants, base } = parse(className);
    const important = base.startsWith("!") || base.endsWith("!");
    const bare = base.replace(/^!|!$/g, "");
    // A postfix (`bg-primary/90`, `text-sm/6`) is looked past first; `text-sm/6` sets the line height too.
    const slash = bare.indexOf("/");
    let group = slash > 0 ? groupOf(bare.slice(0, slash)) : null;
    const withPostfix = group !== null;
    group ??= groupOf(bare);
    if (group === null) {
      kept.push(className);
      continue;
    }
    const prefix = `${variantKey(variants)}${important ? "!" : ""}:`;
    if (taken.has(prefix + group)) continue;
    taken.add(prefix + group);
    for (const other of conflicts[group] ?? []) taken.add(prefix + other);
    if (withPostfix && group === "font-size") taken.add(`${prefix}leading`);
    kept.push(className);
  }
  return kept.reverse().join(" ");
}
