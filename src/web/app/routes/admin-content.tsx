import { Search } from "lucide-react";
import { useId, useState } from "react";
import { CONTENT_BLOCK_MAX, type ContentBlock, contentBlockInputSchema } from "#domain/cms";
import { contentBlockRegistry, isKnownContentBlock } from "#domain/content-blocks";
import { formatDateTime, formatRelativeTime } from "#domain/dates";
import { PageHeader } from "#web/components/layout/page-header";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useAdminContentBlocks } from "#web/features/content-blocks/api/get-admin-content-blocks";
import { useUpdateContentBlock } from "#web/features/content-blocks/api/update-content-block";
import { runMutation } from "#web/lib/mutation";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { useSearchState } from "#web/lib/use-search-state";
import { cn } from "#web/lib/utils";

export function Component() {
  return (
    <RequireAdmin>
      <ContentBlocksScreen />
    </RequireAdmin>
  );
}

function ContentBlocksScreen() {
  const { params, go } = useSearchState();
  const search = params.get("search") ?? "";
  const [text, setText] = useDebouncedInput(search, (typed) => go({ search: typed }));

  return (
    <>
      <PageHeader
        title="Content Blocks"
        subtitle="The editable texts of the home page and the footer. They are plain text: HTML shows exactly as typed."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <search className="relative mb-6 sm:max-w-sm">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden
          />
          <Input
            type="search"
            aria-label="Search content blocks by key"
            placeholder="Search by key, e.g. home.hero"
            className="pl-9"
            maxLength={200}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </search>
        <BlockList search={search} />
      </div>
    </>
  );
}

function BlockList({ search }: { search: string }) {
  const blocks = useAdminContentBlocks(search);
  if (blocks.isPending) return <Spinner label="Loading content blocks" />;
  if (blocks.isError) {
    return <LoadError what="content blocks" error={blocks.error} onRetry={() => blocks.refetch()} />;
  }
  if (blocks.data.length === 0) {
    return <p className="py-16 text-center text-muted-foreground">No content blocks found.</p>;
  }
  return (
    <ul className={cn("grid max-w-4xl gap-4", blocks.isFetching && "opacity-70 transition-opacity")}>
      {blocks.data.map((block) => (
        <li key={block.key}>
          <BlockCard block={block} />
        </li>
      ))}
    </ul>
  );
}

function BlockCard({ block }: { block: ContentBlock }) {
  const id = useId();
  const update = useUpdateContentBlock();
  // What the admin typed; null while it is the saved text.
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = draft ?? block.content;
  const changed = draft !== null && draft !== block.content;
  const label = isKnownContentBlock(block.key) ? contentBlockRegistry[block.key].label : block.key;

  const reset = () => {
    setDraft(null);
    setError(null);
  };

  const save = async () => {
    const parsed = contentBlockInputSchema.safeParse({ content: shown });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Content is not valid");
      return;
    }
    const result = await runMutation(update.mutateAsync({ key: block.key, content: parsed.data.content }), {
      success: { title: "Success", description: "Content block updated successfully!" },
      error: { title: "Failed to update content block", placement: "title" },
    });
    if (result.ok) reset();
  };

  return (
    <Card asChild className="p-5">
      <section aria-labelledby={`${id}-label`} data-testid="content-block" data-key={block.key}>
        <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
          <div className="min-w-0">
            <h2 id={`${id}-label`} className="font-semibold">
              <label htmlFor={`${id}-text`}>{label}</label>
            </h2>
            <p className="font-mono text-xs break-all text-muted-foreground">{block.key}</p>
          </div>
          {block.isDefault ? (
            <Badge variant="outline">Default text</Badge>
          ) : (
            block.updatedAt && (
              <p className="text-xs text-muted-foreground">
                Saved{" "}
                <time dateTime={block.updatedAt} title={formatDateTime(block.updatedAt)}>
                  {formatRelativeTime(block.updatedAt)}
                </time>
              </p>
            )
          )}
        </div>
        <Textarea
          id={`${id}-text`}
          // Grows with its text where the browser can size fields to their content.
          className="mt-3 min-h-20 max-h-80 field-sizing-content"
          rows={3}
          maxLength={CONTENT_BLOCK_MAX}
          value={shown}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
        />
        {error && (
          <p id={`${id}-error`} className="mt-1.5 text-sm text-destructive">
            {error}
          </p>
        )}
        {changed && (
          <div className="mt-3 flex flex-wrap gap-2">
            <Button size="sm" onClick={save} disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
              <span className="sr-only"> {label}</span>
            </Button>
            <Button size="sm" variant="outline" onClick={reset} disabled={update.isPending}>
              Cancel
              <span className="sr-only"> changes to {label}</span>
            </Button>
          </div>
        )}
      </section>
    </Card>
  );
}
