import { Construction } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/paths";

/**
 * The layout of a screen whose content ships in a later release: the route, its guard and its place in
 * the navigation are real; the page says plainly that the feature is not open yet.
 */
export function ScreenPending({ title, purpose }: { title: string; purpose: string }) {
  return (
    <>
      <PageHeader title={title} subtitle={purpose} />
      <section
        className="mx-auto flex max-w-7xl flex-col items-start gap-4 px-4 py-12 sm:px-6"
        data-testid="screen-pending"
      >
        <div className="flex items-center gap-3 rounded-lg border border-dashed border-border bg-card p-6">
          <Construction className="size-6 text-primary" aria-hidden />
          <p className="text-sm text-muted-foreground">
            This part of Stackbay is not open yet. Meanwhile you can browse the catalogue.
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to={paths.products()}>Browse Products</Link>
        </Button>
      </section>
    </>
  );
}
