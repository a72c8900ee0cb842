import { ArrowRight, BadgeCheck, Eye, Globe, HeartHandshake, Rocket, ShieldCheck } from "lucide-react";
import { Link } from "react-router";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { InitialsAvatar } from "#web/features/about/components/initials-avatar";
import { useMarketplaceStats } from "#web/features/catalog/api/get-marketplace-stats";
import { FigureList, figures } from "#web/features/catalog/components/marketplace-figures";

/** Stackbay in numbers, each counted from the database. */
const facts = [
  figures.products("Active Products"),
  figures.vendors("Vendors"),
  figures.countries("Countries"),
  figures.rating("Customer Rating"),
  figures.customers("Customers"),
];

const values = [
  {
    icon: BadgeCheck,
    title: "Trust first",
    text: "Our team reviews new listings before they go live, and every order is covered by a clear refund process.",
  },
  {
    icon: Eye,
    title: "Honest pricing",
    text: "Prices are set in US dollars and shown in your currency, and you see the full total before you pay.",
  },
  {
    icon: Globe,
    title: "Built for every market",
    text: "Buyers and sellers around the world, with payment options that work across borders.",
  },
  {
    icon: Rocket,
    title: "Speed to value",
    text: "License keys and access details land in your dashboard as soon as a payment is confirmed.",
  },
  {
    icon: HeartHandshake,
    title: "Partners, not listings",
    text: "We grow with our vendors: fair terms, useful insights and a team that answers when you call.",
  },
  {
    icon: ShieldCheck,
    title: "Secure by default",
    text: "Encrypted connections, audited payment providers and the least data we need, nothing more.",
  },
];

const team = [
  {
    name: "Layla Haddad",
    role: "Founder & CEO",
    bio: "Started Stackbay after years of buying software for growing teams across the Gulf.",
  },
  {
    name: "Daniel Okafor",
    role: "CTO",
    bio: "Leads the engineering team that keeps the marketplace fast, secure and always on.",
  },
  {
    name: "Priya Raman",
    role: "Head of Marketplace Operations",
    bio: "Runs listing review, order quality and our support operations in India.",
  },
  {
    name: "Mateo Fernández",
    role: "Head of Partner Success",
    bio: "Helps vendors launch, price and grow their products for buyers around the world.",
  },
];

export function Component() {
  const marketplace = useMarketplaceStats();
  return (
    <>
      <PageHeader
        title="About Stackbay"
        subtitle="We make buying and selling technology across borders as simple as buying it next door."
      />

      <section className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-16" aria-labelledby="mission-heading">
        <div className="grid gap-10 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="text-sm font-semibold tracking-wide text-primary uppercase">Our mission</p>
            <h2 id="mission-heading" className="mt-2 text-2xl font-bold sm:text-3xl">
              Every business should be able to get the tools it needs, wherever it is.
            </h2>
          </div>
          <div className="space-y-4 text-muted-foreground">
            <p>
              Stackbay is a global B2B marketplace for SaaS, APIs and developer tools, hardware, software
              licenses and digital services. We bring vendors and business buyers together in one place, with
              transparent prices, payments that work internationally and licenses delivered the moment an
              order is confirmed.
            </p>
            <p>
              Our company is based in Dubai Silicon Oasis in the United Arab Emirates, and our support team
              works from India, so buyers and sellers get real answers from people who know the platform.
            </p>
          </div>
        </div>
      </section>

      <section aria-labelledby="facts-heading" className="border-y border-border bg-card">
        <h2 id="facts-heading" className="sr-only">
          Stackbay in numbers
        </h2>
        <FigureList
          items={facts}
          stats={marketplace.data}
          className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-8 px-4 py-10 sm:grid-cols-3 sm:px-6 lg:grid-cols-5"
          itemClassName="flex flex-col text-center last:col-span-2 sm:last:col-span-1"
        />
      </section>

      <section className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-16" aria-labelledby="values-heading">
        <h2 id="values-heading" className="text-2xl font-bold sm:text-3xl">
          What we value
        </h2>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          The principles behind every listing, payment and support reply on Stackbay.
        </p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {values.map(({ icon: Icon, title, text }) => (
            <Card asChild key={title} className="p-6">
              <li>
                <span className="inline-flex size-11 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                  <Icon className="size-6" aria-hidden />
                </span>
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{text}</p>
              </li>
            </Card>
          ))}
        </ul>
      </section>

      <section
        className="mx-auto max-w-7xl px-4 pb-14 sm:px-6 sm:pb-16"
        aria-labelledby="team-heading"
        data-testid="team"
      >
        <h2 id="team-heading" className="text-2xl font-bold sm:text-3xl">
          Meet the team
        </h2>
        <p className="mt-2 max-w-2xl text-muted-foreground">
          The people responsible for the marketplace, its vendors and your experience.
        </p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {team.map((person) => (
            <Card
              asChild
              key={person.name}
              className="flex items-start gap-4 p-5 sm:flex-col sm:items-center sm:p-6 sm:text-center"
            >
              <li data-testid="team-member">
                <InitialsAvatar name={person.name} size={96} className="size-16 sm:size-24" />
                <div className="min-w-0">
                  <h3 className="font-semibold">{person.name}</h3>
                  <p className="text-sm font-medium text-primary">{person.role}</p>
                  <p className="mt-2 text-sm text-muted-foreground sm:mt-3">{person.bio}</p>
                </div>
              </li>
            </Card>
          ))}
        </ul>
      </section>

      <section className="mx-auto max-w-7xl px-4 pb-4 sm:px-6">
        <div className="rounded-2xl bg-primary px-6 py-12 text-center text-primary-foreground sm:px-12">
          <h2 className="text-2xl font-bold sm:text-3xl">Build your stack with us</h2>
          <p className="mx-auto mt-3 max-w-xl opacity-90">
            Find the software, hardware and services your team needs, or bring your own products to business
            buyers around the world.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg" variant="secondary">
              <Link to={paths.products()}>
                Browse Products <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button
              asChild
              size="lg"
              variant="outline"
              className="border-primary-foreground/40 bg-transparent text-primary-foreground hover:bg-primary-foreground/10 hover:text-primary-foreground"
            >
              <Link to={paths.partner()}>Become a Partner</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
