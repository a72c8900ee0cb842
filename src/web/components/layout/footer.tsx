import { BadgeCheck, Globe, Lock, ShieldCheck } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { countLabel } from "#domain/marketplace-stats";
import { paths } from "#domain/routes";
import { useMarketplaceStats } from "#web/features/catalog/api/get-marketplace-stats";
import { useSiteLinks } from "#web/features/catalog/api/get-site-links";
import { useContentBlock } from "#web/features/content-blocks/api/get-content-blocks";
import { useNearViewport } from "#web/lib/use-near-viewport";

// The form library (react-hook-form, zod and the schemas) loads when the footer is near, not with the page.
const NewsletterForm = lazy(() =>
  import("#web/features/newsletter/components/newsletter-form").then((m) => ({ default: m.NewsletterForm })),
);

// The form's height, kept while it loads so nothing below it moves.
const newsletterPlaceholder = <div className="h-[72px]" aria-hidden />;

const partnerSupportMail = "mailto:partners@stackbay.test";

const quickLinks = [
  { to: paths.home(), label: "Home" },
  { to: paths.products(), label: "Products" },
  { to: paths.about(), label: "About" },
  { to: paths.faq(), label: "FAQ" },
];
const legalLinks = [
  { to: paths.terms(), label: "Terms of Service" },
  { to: paths.privacy(), label: "Privacy Policy" },
];
const partnerLinks = [
  { to: paths.partner(), label: "Become a Partner" },
  { to: paths.developers(), label: "Seller API" },
  { to: paths.contact(), label: "Contact Us" },
];
const badges = [
  { icon: Lock, label: "256-bit TLS" },
  { icon: ShieldCheck, label: "Secure payments" },
  { icon: BadgeCheck, label: "Reviewed listings" },
  { icon: Globe, label: "Sold worldwide" },
];

/** The line under the footer: the marketplace's figures as the database counts them, once loaded. */
function FooterFigures() {
  const { data } = useMarketplaceStats();
  if (!data) return null;
  return (
    <p data-testid="footer-figures">
      {countLabel(data.products)} products · {countLabel(data.vendors)} vendors · {countLabel(data.countries)}{" "}
      countries · {countLabel(data.customers)} customers
    </p>
  );
}

function LinkList({
  title,
  links = [],
  children,
}: {
  title: string;
  links?: { to: string; label: string }[];
  children?: React.ReactNode;
}) {
  return (
    <div>
      <h2 className="text-sm font-semibold">{title}</h2>
      <ul className="mt-3 space-y-2 text-sm text-muted-foreground">
        {links.map((l) => (
          <li key={l.to}>
            <Link to={l.to} className="hover:text-foreground">
              {l.label}
            </Link>
          </li>
        ))}
        {children}
      </ul>
    </div>
  );
}

/** The operator's social accounts as configured (SOCIAL_*_URL); nothing at all when none is set. */
function SocialLinks() {
  const { data } = useSiteLinks();
  if (!data || data.social.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Stackbay on social media" data-testid="social-links">
      {data.social.map((s) => (
        <li key={s.label}>
          <a
            href={s.url}
            rel="noopener noreferrer"
            target="_blank"
            className="rounded-full border border-border px-3 py-1 text-xs font-medium text-muted-foreground hover:text-foreground"
          >
            {s.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function Footer() {
  const tagline = useContentBlock("footer.tagline");
  const [near, newsletter] = useNearViewport();
  return (
    <footer className="mt-16 border-t border-border bg-card print:hidden" data-testid="footer">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-5">
        <div className="lg:col-span-2">
          <Link to={paths.home()} className="flex items-center gap-2 text-lg font-bold">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            Stackbay
          </Link>
          <p className="mt-3 max-w-sm text-sm text-muted-foreground">{tagline}</p>
          <div ref={newsletter} className="mt-6 max-w-sm">
            {near ? (
              <Suspense fallback={newsletterPlaceholder}>
                <NewsletterForm />
              </Suspense>
            ) : (
              newsletterPlaceholder
            )}
          </div>
        </div>
        <LinkList title="Quick Links" links={quickLinks} />
        <LinkList title="Legal" links={legalLinks} />
        <LinkList title="Partners" links={partnerLinks}>
          <li>
            <a href={partnerSupportMail} className="hover:text-foreground">
              Partner Support
            </a>
          </li>
        </LinkList>
      </div>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 border-t border-border px-4 py-6 sm:px-6">
        <ul className="flex flex-wrap gap-4 text-xs text-muted-foreground" aria-label="Trust badges">
          {badges.map(({ icon: Icon, label }) => (
            <li key={label} className="flex items-center gap-1.5">
              <Icon className="size-4 text-primary" aria-hidden /> {label}
            </li>
          ))}
        </ul>
        <SocialLinks />
      </div>
      <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 pb-8 text-xs text-muted-foreground sm:flex-row sm:justify-between sm:px-6">
        <p>© {new Date().getFullYear()} Stackbay FZCO, Dubai Silicon Oasis, UAE. All rights reserved.</p>
        <FooterFigures />
      </div>
    </footer>
  );
}
