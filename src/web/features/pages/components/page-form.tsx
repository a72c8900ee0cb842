import { zodResolver } from "@hookform/resolvers/zod";
import { Eye, Pencil, Wand2 } from "lucide-react";
import { lazy, Suspense, useId, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { type Page, type PageInput, type PageValues, pageInputSchema } from "#domain/cms";
import { paths } from "#domain/routes";
import { slugify } from "#domain/slug";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { Spinner } from "#web/components/ui/spinner";
import { PagePreview } from "#web/features/pages/components/page-preview";
import type { OnApiError } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

const blank: PageInput = {
  title: "",
  slug: "",
  content: "",
  // New pages start as drafts, as the server does when isActive is left out.
  isActive: false,
  seoMeta: { title: "", description: "", ogImageUrl: "" },
};

// Tiptap and ProseMirror are the largest part of this screen: fetched only when the editor is shown.
const RichTextEditor = lazy(() => import("#web/features/pages/components/rich-text-editor"));

const CONTENT_HINT =
  "Headings, lists, links, images and tables. Scripts, iframes, styles and event handlers are removed when you save.";

const fromPage = (page: Page): PageInput => ({
  title: page.title,
  slug: page.slug,
  content: page.content,
  isActive: page.isActive,
  seoMeta: page.seoMeta,
});

/**
 * The page form for add and edit. `onSave` runs the save with the form's own error step (`on`, for
 * `runMutation`): a slug that is taken is marked on the slug field, beside the screen's toast; the form
 * keeps what was typed.
 */
export function PageForm({
  page,
  submitLabel,
  onSave,
}: {
  page?: Page;
  submitLabel: string;
  onSave: (values: PageValues, on: OnApiError) => Promise<void>;
}) {
  const form = useForm<PageInput, unknown, PageValues>({
    resolver: zodResolver(pageInputSchema),
    defaultValues: page ? fromPage(page) : blank,
  });
  const { errors, isSubmitting, isSubmitted } = form.formState;
  // A new page's slug follows its title until someone edits the slug by hand.
  const [slugFollowsTitle, setSlugFollowsTitle] = useState(!page);
  const [tab, setTab] = useState<"write" | "preview">("write");
  const content = useWatch({ control: form.control, name: "content" });
  const tabsId = useId();

  const setSlug = (slug: string) =>
    form.setValue("slug", slug, { shouldDirty: true, shouldValidate: isSubmitted });

  const onSubmit = form.handleSubmit(
    (values) =>
      onSave(values, (error) => {
        if (error.code === "PAGE_SLUG_TAKEN") {
          form.setError("slug", { message: error.message }, { shouldFocus: true });
        }
        return undefined;
      }),
    // A content error must be visible (and its field focusable) even when the preview is open.
    (invalid) => {
      if (invalid.content) setTab("write");
    },
  );

  const title = form.register("title", {
    onChange: (event) => {
      if (slugFollowsTitle) setSlug(slugify(event.target.value));
    },
  });
  const slug = form.register("slug", {
    // Clearing the slug hands it back to the title; typing one keeps it.
    onChange: (event) => setSlugFollowsTitle(!page && event.target.value === ""),
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card className="grid content-start gap-5 p-5 sm:p-6">
        <FormField label="Title" error={errors.title?.message}>
          <Input {...title} maxLength={200} />
        </FormField>
        <div className="flex items-start gap-2">
          <FormField
            label="Slug"
            error={errors.slug?.message}
            hint="Lowercase letters, numbers and hyphens: the page's address is /pages/ followed by the slug."
            className="min-w-0 flex-1"
          >
            <Input {...slug} maxLength={100} className="font-mono" spellCheck={false} autoCapitalize="off" />
          </FormField>
          <Button
            type="button"
            variant="outline"
            className="mt-[1.625rem]"
            onClick={() => {
              setSlug(slugify(form.getValues("title")));
              setSlugFollowsTitle(false);
            }}
          >
            <Wand2 aria-hidden /> Generate
            <span className="sr-only"> slug from the title</span>
          </Button>
        </div>

        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-sm font-medium" aria-hidden>
              Content
            </span>
            <div
              role="tablist"
              aria-label="Content view"
              className="flex rounded-md border border-input p-0.5"
            >
              {(
                [
                  ["write", "Write", Pencil],
                  ["preview", "Preview", Eye],
                ] as const
              ).map(([value, label, Icon]) => (
                <button
                  key={value}
                  type="button"
                  role="tab"
                  id={`${tabsId}-${value}-tab`}
                  aria-selected={tab === value}
                  aria-controls={`${tabsId}-${value}`}
                  onClick={() => setTab(value)}
                  className={cn(
                    "inline-flex items-center gap-1.5 rounded px-3 py-1 text-sm font-medium text-muted-foreground transition-colors focus-visible:outline-2 focus-visible:outline-ring [&_svg]:size-4",
                    tab === value && "bg-accent text-accent-foreground",
                  )}
                >
                  <Icon aria-hidden /> {label}
                </button>
              ))}
            </div>
          </div>
          <div
            role="tabpanel"
            id={`${tabsId}-write`}
            aria-labelledby={`${tabsId}-write-tab`}
            hidden={tab !== "write"}
          >
            <Suspense fallback={<Spinner label="Loading the editor" className="py-16" />}>
              <Controller
                control={form.control}
                name="content"
                render={({ field }) => (
                  <RichTextEditor
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={errors.content?.message}
                    hint={CONTENT_HINT}
                    // The form focuses the field on a validation error, in whichever mode it shows.
                    handle={field.ref}
                  />
                )}
              />
            </Suspense>
          </div>
          {tab === "preview" && (
            <div role="tabpanel" id={`${tabsId}-preview`} aria-labelledby={`${tabsId}-preview-tab`}>
              {content?.trim() ? (
                <PagePreview html={content} />
              ) : (
                <p className="rounded-md border border-dashed border-input p-8 text-center text-sm text-muted-foreground">
                  Nothing to preview yet.
                </p>
              )}
            </div>
          )}
        </div>
      </Card>

      <div className="grid content-start gap-6">
        <Card asChild className="p-5">
          <section aria-labelledby={`${tabsId}-publish`}>
            <h2 id={`${tabsId}-publish`} className="font-semibold">
              Publishing
            </h2>
            <label className="mt-4 flex items-start gap-3 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4 accent-primary"
                {...form.register("isActive")}
              />
              <span>
                <span className="font-medium">Active (published)</span>
                <span className="block text-xs text-muted-foreground">
                  Drafts are not visible to visitors.
                </span>
              </span>
            </label>
            <div className="mt-6 flex flex-wrap gap-2">
              <Button type="submit" disabled={isSubmitting}>
                {isSubmitting ? "Saving..." : submitLabel}
              </Button>
              <Button asChild variant="outline">
                <Link to={paths.admin.pages()}>Cancel</Link>
              </Button>
            </div>
          </section>
        </Card>

        <Card asChild className="grid gap-4 p-5">
          <section aria-labelledby={`${tabsId}-seo`}>
            <h2 id={`${tabsId}-seo`} className="font-semibold">
              Search and sharing
            </h2>
            <FormField
              label="SEO meta title"
              error={errors.seoMeta?.title?.message}
              hint="The browser tab and search result title; the page title when empty."
            >
              <Input {...form.register("seoMeta.title")} maxLength={200} />
            </FormField>
            <FormField
              label="SEO meta description"
              error={errors.seoMeta?.description?.message}
              hint="The summary under the title in search results."
            >
              <Textarea
                {...form.register("seoMeta.description")}
                rows={3}
                className="min-h-20"
                maxLength={500}
              />
            </FormField>
            <FormField
              label="OG image URL"
              error={errors.seoMeta?.ogImageUrl?.message}
              hint="An http(s) link to the picture shown when the page is shared."
            >
              <Input
                {...form.register("seoMeta.ogImageUrl")}
                type="url"
                inputMode="url"
                placeholder="https://"
              />
            </FormField>
          </section>
        </Card>
      </div>
    </form>
  );
}
