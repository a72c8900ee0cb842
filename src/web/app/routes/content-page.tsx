import { FileQuestion } from "lucide-react";
import { Link, useParams } from "react-router";
import type { PublicPage } from "#domain/cms";
import { formatDate } from "#domain/dates";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { usePage } from "#web/features/pages/api/get-page";
import { PageContent } from "#web/features/pages/components/page-content";
import { ApiError } from "#web/lib/api";

/** The text of the page for the description tag when no SEO description was written (as the server does). */
function summary(html: string): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}...` : text;
}

function PageNotFound() {
  return (
    <section
      className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-24 text-center"
      data-testid="page-not-found"
    >
      <title>Page Not Found | Stackbay</title>
      <FileQuestion className="size-12 text-muted-foreground" aria-hidden />
      <h1 className="text-2xl font-bold sm:text-3xl">Page Not Found</h1>
      <p className="text-muted-foreground">
        The page you're looking for doesn't exist or is currently inactive.
      </p>
      <Button asChild>
        <Link to={paths.home()}>Back to Home</Link>
      </Button>
    </section>
  );
}

function ContentPage({ page }: { page: PublicPage }) {
  const { seoMeta } = page;
  const description = seoMeta.description || summary(page.content);
  return (
    <article>
      <title>{seoMeta.title || page.title || "Stackbay"}</title>
      {description && <meta name="description" content={description} />}
      {seoMeta.ogImageUrl && <meta property="og:image" content={seoMeta.ogImageUrl} />}
      <header className="border-b border-border bg-gradient-to-b from-accent/60 to-background">
        <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
          <h1 className="text-3xl font-bold tracking-tight break-words sm:text-4xl">{page.title}</h1>
          <p className="mt-3 text-sm text-muted-foreground" data-testid="page-updated">
            Last updated: <time dateTime={page.updatedAt}>{formatDate(page.updatedAt)}</time>
          </p>
        </div>
      </header>
      <PageContent html={page.content} className="mx-auto max-w-3xl px-4 py-10 sm:px-6 lg:py-12" />
    </article>
  );
}

export function Component() {
  const { slug = "" } = useParams();
  const page = usePage(slug);
  if (page.isPending) return <Spinner label="Loading page" />;
  if (page.isError) {
    if (page.error instanceof ApiError && page.error.status === 404) return <PageNotFound />;
    return (
      <LoadError
        page
        title="This page could not be loaded"
        error={page.error}
        onRetry={() => page.refetch()}
      />
    );
  }
  return <ContentPage page={page.data} />;
}
