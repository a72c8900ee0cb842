import { ArrowRight, BadgeCheck, Globe, ShieldCheck, Zap } from "lucide-react";
import { useEffect } from "react";
import { Link, useSearchParams } from "react-router";
import type { ContentBlockKey } from "#domain/content-blocks";
import { currencyByCode } from "#domain/currency";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { LoadError } from "#web/components/ui/load-error";
import { useMarketplaceStats } from "#web/features/catalog/api/get-marketplace-stats";
import { useFeaturedProducts } from "#web/features/catalog/api/get-products";
import { FigureList, figures } from "#web/features/catalog/components/marketplace-figures";
import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import { useContentBlock } from "#web/features/content-blocks/api/get-content-blocks";
import { useCurrency } from "#web/features/currency/currency-store";
import { showToast } from "#web/lib/lazy-toast";

/** The spec's stats band, each figure counted from the database. */
const stats = [
  figures.products("Active Products"),
  figures.vendors("Global Vendors"),
  figures.countries("Countries Served"),
  figures.rating("Customer Rating"),
];

/** The four value cards; their texts are content blocks admins can edit. */
const values: { icon: typeof Globe; title: string; block: ContentBlockKey }[] = [
  { icon: Globe, title: "Global Marketplace", block: "home.values.global" },
  { icon: ShieldCheck, title: "Secure Transactions", block: "home.values.secure" },
  { icon: Zap, title: "Instant Access", block: "home.values.instant" },
  { icon: BadgeCheck, title: "Verified Vendors", block: "home.values.verified" },
];

function ValueCard({ icon: Icon, title, block }: (typeof values)[number]) {
  const text = useContentBlock(block);
  return (
    <Card asChild className="p-6">
      <li>
        <Icon className="size-8 text-primary" aria-hidden />
        <h3 className="mt-4 font-semibold">{title}</h3>
        <p className="mt-2 text-sm text-muted-foreground">{text}</p>
      </li>
    </Card>
  );
}

function FeaturedProducts() {
  const featured = useFeaturedProducts();
  return (
    <section className="mx-auto max-w-7xl px-4 pb-16 sm:px-6" aria-labelledby="featured-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h2 id="featured-heading" className="text-2xl font-bold sm:text-3xl">
          Featured Products
        </h2>
        <Button asChild variant="outline">
          <Link to={paths.products()}>
            View All Products <ArrowRight aria-hidden />
          </Link>
        </Button>
      </div>
      {featured.isError ? (
        <LoadError
          what="featured products"
          error={featured.error}
          onRetry={() => void featured.refetch()}
          className="mt-8"
        >
          <Link to={paths.products()} className="text-sm text-primary underline">
            Browse all products instead
          </Link>
        </LoadError>
      ) : (
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {featured.isPending ? (
            <ProductCardSkeletons count={4} />
          ) : (
            featured.data.items.map((product) => <ProductCard key={product.id} product={product} />)
          )}
        </div>
      )}
    </section>
  );
}

const newsletterOutcomes: Record<string, [kind: "success" | "error", title: string, text: string]> = {
  confirmed: ["success", "Subscription confirmed", "You'll receive our latest updates and offers."],
  unsubscribed: ["success", "You're unsubscribed", "You won't receive our newsletter any more."],
  invalid: ["error", "Link not valid", "This link has already been used or is not valid."],
};

/** The newsletter's e-mailed links land here with ?newsletter=...; say what happened, then tidy the URL. */
function useNewsletterOutcome() {
  const [params, setParams] = useSearchParams();
  const outcome = params.get("newsletter");
  useEffect(() => {
    const known = outcome ? newsletterOutcomes[outcome] : undefined;
    if (!known) return;
    const [kind, title, description] = known;
    showToast(kind, title, { description });
    setParams({}, { replace: true });
  }, [outcome, setParams]);
}

export function Component() {
  useNewsletterOutcome();
  const currency = currencyByCode(useCurrency());
  const heroTitle = useContentBlock("home.hero.title");
  const heroSubtitle = useContentBlock("home.hero.subtitle");
  const ctaTitle = useContentBlock("home.cta.title");
  const ctaSubtitle = useContentBlock("home.cta.subtitle");
  const marketplace = useMarketplaceStats();
  return (
    <>
      <title>Stackbay | Global marketplace for technology products and deals</title>
      <section className="relative overflow-hidden border-b border-border bg-gradient-to-br from-accent via-background to-background">
        <div className="mx-auto max-w-7xl px-4 py-20 sm:px-6 sm:py-28">
          <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight sm:text-6xl">{heroTitle}</h1>
          <p className="mt-6 max-w-2xl text-lg text-muted-foreground">{heroSubtitle}</p>
          {currency.code !== "USD" && (
            <p
              className="mt-4 inline-flex rounded-full bg-card px-4 py-1.5 text-sm shadow-sm"
              data-testid="currency-note"
            >
              Prices are shown in {currency.name} ({currency.symbol}).
            </p>
          )}
          <div className="mt-10 flex flex-wrap gap-3">
            <Button asChild size="lg">
              <Link to={paths.products()}>
                Explore Products <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to={paths.partner()}>Sell on Stackbay</Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-label="Stackbay in numbers" className="border-b border-border bg-card">
        <FigureList
          items={stats}
          stats={marketplace.data}
          className="mx-auto grid max-w-7xl grid-cols-2 gap-6 px-4 py-10 sm:px-6 md:grid-cols-4"
        />
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6" aria-labelledby="why-heading">
        <h2 id="why-heading" className="text-2xl font-bold sm:text-3xl">
          Why businesses buy on Stackbay
        </h2>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {values.map((value) => (
            <ValueCard key={value.block} {...value} />
          ))}
        </ul>
      </section>

      <FeaturedProducts />

      <section className="mx-auto max-w-7xl px-4 pb-4 sm:px-6">
        {/* A solid brand block in light; in the dark a tinted panel, so it does not glare off the page. */}
        <div className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12 dark:border dark:border-primary/30 dark:bg-primary/10 dark:text-foreground">
          <h2 className="text-2xl font-bold sm:text-3xl">{ctaTitle}</h2>
          <p className="mx-auto mt-3 max-w-xl opacity-90">{ctaSubtitle}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button
              asChild
              size="lg"
              variant="secondary"
              className="dark:bg-primary dark:text-primary-foreground dark:hover:bg-primary/90"
            >
              <Link to={paths.signup()}>Get Started Free</Link>
            </Button>
            <Button
              asChild
              size="lg"
              variant="outline"
              className="border-primary-foreground/40 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground dark:border-border dark:text-foreground dark:hover:bg-accent dark:hover:text-accent-foreground"
            >
              <Link to={paths.contact()}>Contact Sales</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
