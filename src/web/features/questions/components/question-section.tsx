import { zodResolver } from "@hookform/resolvers/zod";
import { Clock } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router";
import type { z } from "zod";
import { type QuestionInput, questionInputSchema } from "#domain/questions";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { useAskQuestion, useQuestions } from "#web/features/questions/api/questions";
import { QuestionItem } from "#web/features/questions/components/question-item";
import { runMutation } from "#web/lib/mutation";

function AskForm({ productId }: { productId: string }) {
  const ask = useAskQuestion(productId);
  const form = useForm<z.input<typeof questionInputSchema>, unknown, QuestionInput>({
    resolver: zodResolver(questionInputSchema),
    defaultValues: { text: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ text }) => {
    const result = await runMutation(ask.mutateAsync(text), {
      success: {
        title: "Question sent",
        description: "The seller has been told; it shows here once answered.",
      },
      error: { title: "Your question could not be sent" },
    });
    if (result.ok) form.reset({ text: "" });
  });
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3" aria-label="Ask a question">
      <FormField
        label="Ask the seller a question"
        error={errors.text?.message}
        hint="10 to 1000 characters. Answered questions are public; you are e-mailed the answer."
      >
        <Textarea rows={3} maxLength={1000} {...form.register("text")} />
      </FormField>
      <Button type="submit" className="self-start" disabled={isSubmitting}>
        {isSubmitting ? "Sending..." : "Ask question"}
      </Button>
    </form>
  );
}

/** The product page's questions and answers, under its reviews. */
export function QuestionSection({ productId }: { productId: string }) {
  const [page, setPage] = useState(1);
  const questions = useQuestions(productId, page);
  const viewer = questions.data?.viewer;
  const answerTime = questions.data?.answerTime;

  return (
    <Card asChild className="mt-8 p-6" flat>
      <section aria-labelledby="questions-heading" data-testid="questions">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="questions-heading" className="text-xl font-semibold">
            Questions &amp; answers
          </h2>
          {answerTime && (
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="answer-time">
              <Clock aria-hidden className="size-4" />
              <span>{answerTime}</span>
            </p>
          )}
        </div>

        {viewer && (
          <div className="mt-4">
            {!viewer.signedIn && (
              <p className="text-sm text-muted-foreground">
                <Link to={paths.login()} className="font-medium text-primary hover:underline">
                  Log in
                </Link>{" "}
                to ask the seller a question.
              </p>
            )}
            {viewer.canAsk && (
              <div className="rounded-lg border border-border p-4">
                <AskForm productId={productId} />
              </div>
            )}
          </div>
        )}

        <div className="mt-2">
          <PagedList query={questions} what="questions" empty="No questions answered yet." onPage={setPage}>
            {(items) => (
              <ul className="divide-y divide-border" aria-label="Questions about this product">
                {items.map((question) => (
                  <QuestionItem
                    key={question.id}
                    question={question}
                    signedIn={viewer?.signedIn ?? false}
                    isAdmin={viewer?.isAdmin ?? false}
                  />
                ))}
              </ul>
            )}
          </PagedList>
        </div>
      </section>
    </Card>
  );
}
