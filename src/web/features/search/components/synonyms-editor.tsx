import { BookA, Pencil, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { type Synonym, synonymInputSchema } from "#domain/search";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Button } from "#web/components/ui/button";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { useDeleteSynonym, useSaveSynonym, useSynonyms } from "#web/features/search/api/synonyms";
import { ApiError } from "#web/lib/api";
import { runMutation } from "#web/lib/mutation";

type Draft = { id?: string; term: string; synonyms: string };
const empty: Draft = { term: "", synonyms: "" };

/** The form to add a word's synonyms, or change them (`draft.id`), and the list of every entry. */
export function SynonymsEditor() {
  const [draft, setDraft] = useState<Draft>(empty);
  const [errors, setErrors] = useState<{ term?: string; synonyms?: string }>({});
  const save = useSaveSynonym();
  const query = useSynonyms();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // The same schema as the server's, so the messages match; synonyms are typed comma-separated.
    const parsed = synonymInputSchema.safeParse({
      term: draft.term,
      synonyms: draft.synonyms.split(",").filter((word) => word.trim() !== ""),
    });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "term" ? "term" : "synonyms";
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    const result = await runMutation(save.mutateAsync({ id: draft.id, ...parsed.data }), {
      success: { title: "Success", description: draft.id ? "Synonyms updated" : "Synonyms added" },
      error: { title: "Failed to save synonyms" },
    });
    if (result.ok) setDraft(empty);
    else if (result.error instanceof ApiError && result.error.code === "SYNONYM_EXISTS") {
      setErrors({ term: result.error.message });
    }
  };

  const edit = (synonym: Synonym) => {
    setErrors({});
    setDraft({ id: synonym.id, term: synonym.term, synonyms: synonym.synonyms.join(", ") });
  };

  return (
    <div className="flex flex-col gap-6">
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-4 sm:grid-cols-[10rem_1fr_auto] sm:items-start"
      >
        <FormField label="Word" error={errors.term}>
          <Input
            placeholder="e.g. k8s"
            autoComplete="off"
            value={draft.term}
            onChange={(event) => setDraft({ ...draft, term: event.target.value })}
          />
        </FormField>
        <FormField label="Also finds" error={errors.synonyms} hint="Words separated by commas">
          <Input
            placeholder="e.g. kubernetes"
            autoComplete="off"
            value={draft.synonyms}
            onChange={(event) => setDraft({ ...draft, synonyms: event.target.value })}
          />
        </FormField>
        <div className="flex gap-2 sm:mt-7">
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving..." : draft.id ? "Save changes" : "Add synonyms"}
          </Button>
          {draft.id && (
            <Button type="button" variant="ghost" onClick={() => setDraft(empty)}>
              Cancel
            </Button>
          )}
        </div>
      </form>

      {query.isPending ? (
        <Spinner label="Loading synonyms" className="py-12" />
      ) : query.isError ? (
        <LoadError what="synonyms" error={query.error} onRetry={() => query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 py-12 text-center text-muted-foreground">
          <BookA className="size-8" aria-hidden />
          <p>No synonyms yet. Add the first one above.</p>
        </div>
      ) : (
        <ul className="divide-y divide-border rounded-lg border border-border" aria-label="Synonyms">
          {query.data.items.map((synonym) => (
            <SynonymRow key={synonym.id} synonym={synonym} onEdit={() => edit(synonym)} />
          ))}
        </ul>
      )}
    </div>
  );
}

function SynonymRow({ synonym, onEdit }: { synonym: Synonym; onEdit: () => void }) {
  const remove = useDeleteSynonym();
  const confirm = () =>
    runMutation(remove.mutateAsync(synonym.id), {
      success: { title: "Success", description: "Synonyms deleted" },
      error: { title: "Failed to delete synonyms" },
    });
  return (
    <li className="flex items-center gap-3 px-4 py-3" data-testid="synonym-row">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-words">{synonym.term}</p>
        <p className="text-sm break-words text-muted-foreground">{synonym.synonyms.join(", ")}</p>
      </div>
      <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${synonym.term}`}>
        <Pencil aria-hidden />
      </Button>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
            disabled={remove.isPending}
            aria-label={`Delete ${synonym.term}`}
          >
            <Trash2 aria-hidden />
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Are you sure?</AlertDialogTitle>
            <AlertDialogDescription>
              Searches for “{synonym.term}” will no longer also find {synonym.synonyms.join(", ")}.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={confirm}>
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </li>
  );
}
