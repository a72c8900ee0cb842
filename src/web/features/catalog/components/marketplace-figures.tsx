import type { MarketplaceStats } from "#domain/catalog-schemas";
import { countLabel } from "#domain/marketplace-stats";

export type Figure = { label: string; value: (stats: MarketplaceStats) => string | null };

/** The figures a page shows: counts rounded down ("60+"), the mean rating as stored; none without data. */
export const figures = {
  products: (label: string): Figure => ({ label, value: (s) => countLabel(s.products) }),
  vendors: (label: string): Figure => ({ label, value: (s) => countLabel(s.vendors) }),
  countries: (label: string): Figure => ({ label, value: (s) => countLabel(s.countries) }),
  customers: (label: string): Figure => ({ label, value: (s) => countLabel(s.customers) }),
  rating: (label: string): Figure => ({ label, value: (s) => s.rating }),
};

/**
 * A band of figures (`<dl>`, the value large above its label): each value from the stats, a figure with
 * no value (a rating before the first review) left out; while the stats load, or if they cannot, a dash
 * keeps the band's height. The page lays the band out (`className`) and its items (`itemClassName`).
 */
export function FigureList({
  items,
  stats,
  className,
  itemClassName = "flex flex-col text-center",
}: {
  items: Figure[];
  stats: MarketplaceStats | undefined;
  className?: string;
  itemClassName?: string;
}) {
  const shown = items
    .map((item) => ({ label: item.label, value: stats ? item.value(stats) : "–" }))
    .filter((item): item is { label: string; value: string } => item.value !== null);
  return (
    <dl className={className} aria-busy={stats ? undefined : true}>
      {shown.map((item) => (
        <div key={item.label} className={itemClassName}>
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="order-first text-3xl font-extrabold text-primary">{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
