import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { escapeHtml } from "#server/lib/escape-html";
import type { FileStorage } from "#server/storage/storage";

export const PRODUCT_IMAGE_SIZE = { width: 800, height: 600 } as const;

const views = ["Overview", "Dashboard", "In detail", "Package"] as const;

function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.max(0, Math.min(255, ((n >> shift) & 0xff) + amount));
  return `#${[16, 8, 0].map((s) => channel(s).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A product picture drawn from its name and colour, since demo data cannot download photos. The logo
 * and texts stay inside the middle 2:1 band, which is what product cards show of it.
 */
export function productImageSvg(name: string, vendor: string, accent: string, view: number): string {
  const { width, height } = PRODUCT_IMAGE_SIZE;
  const label = views[view % views.length];
  const initials = name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0] ?? "")
    .join("")
    .toUpperCase();
  const titleSize = Math.min(46, Math.floor(1040 / Math.max(name.length, 1)));
  const shapes = [
    `<circle cx="640" cy="120" r="150" fill="${shade(accent, 40)}" opacity="0.45"/>`,
    `<rect x="470" y="210" width="260" height="170" rx="18" fill="#ffffff" opacity="0.18"/><rect x="490" y="240" width="150" height="14" rx="7" fill="#ffffff" opacity="0.6"/><rect x="490" y="270" width="210" height="14" rx="7" fill="#ffffff" opacity="0.35"/><rect x="490" y="300" width="120" height="14" rx="7" fill="#ffffff" opacity="0.35"/>`,
    `<path d="M60 520 L250 380 L400 450 L560 300 L740 360" stroke="#ffffff" stroke-width="10" fill="none" opacity="0.5"/>`,
    `<rect x="520" y="120" width="200" height="200" rx="24" fill="${shade(accent, -50)}" opacity="0.6" transform="rotate(12 620 220)"/>`,
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${shade(accent, 30)}"/><stop offset="1" stop-color="${shade(accent, -60)}"/>
  </linearGradient></defs>
  <rect width="${width}" height="${height}" fill="url(#g)"/>
  ${shapes[view % shapes.length]}
  <rect x="60" y="120" width="120" height="120" rx="28" fill="#ffffff" opacity="0.92"/>
  <text x="120" y="198" font-family="DejaVu Sans, Arial, sans-serif" font-size="52" font-weight="700" fill="${shade(accent, -40)}" text-anchor="middle">${escapeHtml(initials)}</text>
  <text x="60" y="420" font-family="DejaVu Sans, Arial, sans-serif" font-size="${titleSize}" font-weight="700" fill="#ffffff">${escapeHtml(name)}</text>
  <text x="60" y="465" font-family="DejaVu Sans, Arial, sans-serif" font-size="26" fill="#ffffff" opacity="0.85">${escapeHtml(vendor)} · ${label}</text>
</svg>`;
}

const cacheDir = path.join(os.tmpdir(), `stackbay-image-cache-${sharp.versions.vips}`);

/**
 * WebP at effort 2 instead of sharp's 4: about three times faster to encode, for files some 3% larger.
 * The demo's 400-odd pictures are rendered on a first start, before the server answers.
 */
const WEBP_OPTIONS = { quality: 78, effort: 2 } as const;

/**
 * `work` for every item, at most one per core at a time (sharp's rendering is native and fills a core
 * each); answers in the items' order.
 */
export async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(items.length, os.availableParallelism()) }, worker));
  return results;
}

/** Renders under way in this process, by cache file: a picture asked for twice is rendered once. */
const rendering = new Map<string, Promise<string>>();

/**
 * The WebP for a picture, rendered once per machine: the file is named by the hash of its SVG (and the
 * encoding options), so a
 * changed picture is rendered again and every later seed (tests, fresh starts) only copies it.
 */
function renderedWebp(svg: string): Promise<string> {
  const key = createHash("sha256").update(JSON.stringify(WEBP_OPTIONS)).update(svg).digest("hex");
  const file = path.join(cacheDir, `${key}.webp`);
  const under = rendering.get(file);
  if (under) return under;
  if (existsSync(file)) return Promise.resolve(file);
  const render = renderWebp(svg, file);
  rendering.set(file, render);
  // Once written, the file itself answers; a failed render is tried again by the next caller.
  render.then(
    () => rendering.delete(file),
    () => rendering.delete(file),
  );
  return render;
}

async function renderWebp(svg: string, file: string): Promise<string> {
  await mkdir(cacheDir, { recursive: true });
  const webp = await sharp(Buffer.from(svg)).webp(WEBP_OPTIONS).toBuffer();
  // Written aside and renamed, so a seed running in parallel never copies half a file.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(partial, webp);
  await rename(partial, file);
  return file;
}

/**
 * Stores `file` under `key`, replacing what a previous seed left there (the local driver never
 * overwrites, so a re-run removes first).
 */
async function storeDemoPicture(storage: FileStorage, key: string, file: string): Promise<string> {
  await storage.remove(key);
  return storage.put(key, await readFile(file), "image/webp");
}

/** Renders the product's pictures as WebP, stores them under products/ and returns their public URLs. */
export async function writeProductImages(
  storage: FileStorage,
  product: { key: string; name: string; vendor: string; accent: string; imageCount: number },
): Promise<string[]> {
  const urls: string[] = [];
  for (let view = 0; view < product.imageCount; view++) {
    const svg = productImageSvg(product.name, product.vendor, product.accent, view);
    urls.push(
      await storeDemoPicture(storage, `products/${product.key}-${view + 1}.webp`, await renderedWebp(svg)),
    );
  }
  return urls;
}

/**
 * Renders every demo picture (products and vendor logos) into the cache, one per core at a time: sharp
 * works on libuv's threads, beside the server's thread loading modules and the worker thread creating
 * the database (which must not wait behind 200 renders queued at once). The seed then only copies
 * them, or waits for a render under way. Resolves when all are cached; a picture that fails here is
 * rendered (and its error reported) by the seed itself.
 */
export async function prerenderDemoPictures(
  products: readonly { name: string; vendor: string; accent: string; imageCount: number }[],
  vendors: readonly { name: string; accent: string }[],
): Promise<void> {
  const svgs = [
    ...products.flatMap((p) =>
      Array.from({ length: p.imageCount }, (_, view) => productImageSvg(p.name, p.vendor, p.accent, view)),
    ),
    ...vendors.map((v) => vendorLogoSvg(v.name, v.accent)),
  ];
  await inParallel(svgs, (svg) => renderedWebp(svg).catch(() => undefined));
}

export const VENDOR_LOGO_SIZE = 256;

/** A storefront logo drawn from the vendor's initials and colour (demo data downloads no images). */
export function vendorLogoSvg(name: string, accent: string): string {
  const size = VENDOR_LOGO_SIZE;
  const initials = name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0] ?? "")
    .join("")
    .toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${shade(accent, 40)}"/><stop offset="1" stop-color="${shade(accent, -50)}"/>
  </linearGradient></defs>
  <rect width="${size}" height="${size}" rx="48" fill="url(#g)"/>
  <circle cx="200" cy="56" r="70" fill="#ffffff" opacity="0.15"/>
  <text x="128" y="158" font-family="DejaVu Sans, Arial, sans-serif" font-size="96" font-weight="700" fill="#ffffff" text-anchor="middle">${escapeHtml(initials)}</text>
</svg>`;
}

/** Renders the vendor's logo as WebP, stores it under vendors/ and returns its public URL. */
export async function writeVendorLogo(
  storage: FileStorage,
  vendor: { slug: string; name: string; accent: string },
): Promise<string> {
  const svg = vendorLogoSvg(vendor.name, vendor.accent);
  return storeDemoPicture(storage, `vendors/${vendor.slug}.webp`, await renderedWebp(svg));
}
