import { groupThousands } from "#domain/money";

/** Plain functions without zod: the footer on every page reads them. The answer's schema is
 * `marketplaceStatsSchema` in `catalog-schemas.ts`. */

/**
 * A count as marketing copy states it, never more than is true: rounded down to its leading digit's
 * place with a "+" ("60+" for 65, "2,000+" for 2,788, "12K+" for 12,345, "1M+" for 1,234,567), and
 * as it is below 10.
 */
export function countLabel(count: number): string {
  const n = Math.max(0, Math.floor(count));
  if (n < 10) return String(n);
  if (n >= 1_000_000) return `${groupThousands(Math.floor(n / 1_000_000))}M+`;
  if (n >= 10_000) return `${groupThousands(Math.floor(n / 1_000))}K+`;
  const place = 10 ** Math.floor(Math.log10(n));
  return `${groupThousands(Math.floor(n / place) * place)}+`;
}
