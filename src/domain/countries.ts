// The library itself, without a locale: the package's Node entry (its `main`) requires every language
// file by a computed path, which a bundle (the server renderer's, decision 0020) cannot follow, so a page
// that formats a country failed to draw on the server.
import isoCountries from "i18n-iso-countries/index.js";
import en from "i18n-iso-countries/langs/en.json" with { type: "json" };

// Only English: the checkout, the invoice and the admin screens are in English, and every other locale
// would be shipped to the browser for nothing.
isoCountries.registerLocale(en);

export type Country = { code: string; name: string };

/** Every ISO 3166-1 alpha-2 country with its English name, sorted by name (the checkout's select). */
export const countries: readonly Country[] = Object.entries(
  isoCountries.getNames("en", { select: "official" }),
)
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, "en"));

const byCode = new Map(countries.map((country) => [country.code, country]));

export function isCountryCode(value: unknown): value is string {
  return typeof value === "string" && byCode.has(value);
}

/** The country's English name; an unknown code reads as itself, so an old value still prints. */
export function countryName(code: string): string {
  return byCode.get(code)?.name ?? code;
}

/**
 * The code of a country typed as free text (a profile's "country"): its code, English name or one of
 * its other English names ("UAE", "United States"), in any case; null when it is none of these.
 */
export function countryCodeOf(text: string | null | undefined): string | null {
  const value = text?.trim();
  if (!value) return null;
  if (isCountryCode(value.toUpperCase())) return value.toUpperCase();
  return isoCountries.getAlpha2Code(value, "en") ?? aliasCode(value) ?? null;
}

function aliasCode(value: string): string | undefined {
  const wanted = value.toLowerCase();
  const all = isoCountries.getNames("en", { select: "all" });
  return Object.keys(all).find((code) => all[code]?.some((name) => name.toLowerCase() === wanted));
}
