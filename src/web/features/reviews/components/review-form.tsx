import { zodResolver } from "@hookform/resolvers/zod";
import { Star } from "lucide-react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { type Review, type ReviewInput, reviewInputSchema } from "#domain/reviews";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { useCreateReview } from "#web/features/reviews/api/create-review";
import { useUpdateReview } from "#web/features/reviews/api/update-review";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** Five radio buttons drawn as stars: arrow keys move between them, as in any radio group. */
function StarInput({
  value,
  onChange,
  error,
}: {
  value: number | undefined;
  onChange: (stars: number) => void;
  error?: string;
}) {
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium">Your rating</legend>
      <div className="flex gap-1">
        {[1, 2, 3, 4, 5].map((stars) => (
          <label
            key={stars}
            className="cursor-pointer rounded-md p-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
          >
            <input
              type="radio"
              name={name}
              value={stars}
              checked={value === stars}
              onChange={() => onChange(stars)}
              className="sr-only"
              aria-label={`${stars} ${stars === 1 ? "star" : "stars"}`}
            />
            <Star
              aria-hidden
              className={cn(
                "size-7",
                value !== undefined && stars <= value
                  ? "fill-amber-400 text-amber-400"
                  : "text-muted-foreground",
              )}
            />
          </label>
        ))}
      </div>
      {error && (
        <p id={`${name}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Write a review, or edit one's own (`existing`) within its 30 days. */
export function ReviewForm({
  productId,
  existing,
  onDone,
}: {
  productId: string;
  existing?: Review;
  onDone?: () => void;
}) {
  const create = useCreateReview(productId);
  const update = useUpdateReview(productId);
  const form = useForm<z.input<typeof reviewInputSchema>, unknown, ReviewInput>({
    resolver: zodResolver(reviewInputSchema),
    defaultValues: { rating: existing?.rating, title: existing?.title ?? "", body: existing?.body ?? "" },
  });
  const { errors, isSubmitting } = form.formState;
  const rating = form.watch("rating") as number | undefined;

  const submit = form.handleSubmit(async (values) => {
    const result = await runMutation(
      existing ? update.mutateAsync({ reviewId: existing.id, body: values }) : create.mutateAsync(values),
      {
        success: { title: existing ? "Review updated" : "Thank you for your review" },
        error: { title: existing ? "Your review could not be updated" : "Your review could not be posted" },
      },
    );
    if (result.ok) {
      if (!existing) form.reset();
      onDone?.();
    }
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={existing ? "Edit your review" : "Write a review"}
    >
      <StarInput
        value={rating}
        onChange={(stars) => form.setValue("rating", stars, { shouldValidate: form.formState.isSubmitted })}
        error={errors.rating?.message}
      />
      <FormField label="Title" error={errors.title?.message}>
        <Input maxLength={120} {...form.register("title")} />
      </FormField>
      <FormField label="Your review" error={errors.body?.message} hint="At least 10 characters.">
        <Textarea rows={4} maxLength={5000} {...form.register("body")} />
      </FormField>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : existing ? "Save review" : "Post review"}
        </Button>
        {onDone && existing && (
          <Button type="button" variant="outline" onClick={onDone} disabled={isSubmitting}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
