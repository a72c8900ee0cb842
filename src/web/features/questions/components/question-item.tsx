import { zodResolver } from "@hookform/resolvers/zod";
import { Flag, MessageCircleQuestion } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { formatDate } from "#domain/dates";
import { type AnswerInput, answerInputSchema, type Question } from "#domain/questions";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { FormField, Textarea } from "#web/components/ui/form-field";
import { HideRestoreDialog } from "#web/components/ui/hide-restore-dialog";
import {
  useAnswerQuestion,
  useModerateQuestion,
  useReportQuestion,
} from "#web/features/questions/api/questions";
import { runMutation } from "#web/lib/mutation";
import { cn } from "#web/lib/utils";

/** The seller's or an admin's answer, or its edit by whoever wrote it. */
export function AnswerForm({ question, onDone }: { question: Question; onDone?: () => void }) {
  const answer = useAnswerQuestion();
  const editing = question.answer !== null;
  const form = useForm<z.input<typeof answerInputSchema>, unknown, AnswerInput>({
    resolver: zodResolver(answerInputSchema),
    defaultValues: { text: question.answer?.text ?? "" },
  });
  const { errors, isSubmitting } = form.formState;
  const submit = form.handleSubmit(async ({ text }) => {
    const result = await runMutation(answer.mutateAsync({ questionId: question.id, text }), {
      success: { title: editing ? "Answer updated" : "Answer posted" },
      error: { title: editing ? "Your answer could not be updated" : "Your answer could not be posted" },
    });
    if (result.ok) {
      if (!editing) form.reset({ text: "" });
      onDone?.();
    }
  });
  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-2"
      aria-label={`Answer the question from ${question.askerFirstName}`}
    >
      <FormField
        label={editing ? "Edit your answer" : "Your answer"}
        error={errors.text?.message}
        hint="Public on the product page; the asker is e-mailed."
      >
        <Textarea rows={3} maxLength={2000} {...form.register("text")} />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : editing ? "Save answer" : "Post answer"}
        </Button>
        {onDone && (
          <Button type="button" size="sm" variant="outline" disabled={isSubmitting} onClick={onDone}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

function Moderation({ question }: { question: Question }) {
  const moderate = useModerateQuestion();
  return (
    <HideRestoreDialog
      noun="question"
      writer="asker"
      published={question.status === "published"}
      subject={`Question from ${question.askerFirstName}`}
      effect={{
        hide: "It leaves the product page; the asker is e-mailed the reason.",
        restore: "It shows on the product page again; the asker is e-mailed.",
      }}
      pending={moderate.isPending}
      decide={(action, reason) => moderate.mutateAsync({ questionId: question.id, action, reason })}
    />
  );
}

/**
 * One question with its answer and what the reader may do: answer or edit (seller, admin), report
 * (anyone signed in but the asker), hide or restore (admins). `context` names the product in the dashboard.
 */
export function QuestionItem({
  question,
  signedIn,
  isAdmin,
  context,
}: {
  question: Question;
  signedIn: boolean;
  isAdmin: boolean;
  context?: string;
}) {
  const report = useReportQuestion();
  const [editing, setEditing] = useState(false);
  return (
    <li
      className={cn("flex flex-col gap-2 py-5", question.status === "hidden" && "opacity-80")}
      data-testid="question"
    >
      {context && <p className="text-sm font-medium text-muted-foreground">{context}</p>}
      {question.status === "hidden" && (
        <p className="rounded-md border border-destructive/40 px-3 py-2 text-sm" role="note">
          <span className="font-semibold">Hidden</span>
          {question.hiddenReason ? `: ${question.hiddenReason}` : ""}
        </p>
      )}
      <div className="flex gap-2">
        <MessageCircleQuestion aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
        <p className="whitespace-pre-line break-words font-medium">{question.text}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span>
          {question.isMine ? "You" : question.askerFirstName} ·{" "}
          <time dateTime={question.createdAt}>{formatDate(question.createdAt)}</time>
        </span>
        {!question.answer && <Badge variant="secondary">Awaiting answer</Badge>}
      </div>

      {question.answer && !editing && (
        <div className="ml-4 border-l-2 border-border pl-4 text-sm" data-testid="answer">
          <p className="font-medium">
            {question.answer.by === "seller" ? "Answer from the seller" : "Answer from Stackbay"} ·{" "}
            <time dateTime={question.answer.answeredAt} className="font-normal text-muted-foreground">
              {formatDate(question.answer.answeredAt)}
            </time>
          </p>
          <p className="whitespace-pre-line break-words text-muted-foreground">{question.answer.text}</p>
        </div>
      )}
      {question.canAnswer && !question.answer && <AnswerForm question={question} />}
      {question.canAnswer && question.answer && editing && (
        <AnswerForm question={question} onDone={() => setEditing(false)} />
      )}

      <div className="flex flex-wrap items-center gap-2">
        {question.canAnswer && question.answer && !editing && (
          <Button size="sm" variant="outline" onClick={() => setEditing(true)}>
            Edit answer
          </Button>
        )}
        {signedIn && !question.isMine && question.status === "published" && (
          <Button
            size="sm"
            variant="ghost"
            disabled={question.reportedByMe || report.isPending}
            aria-label={
              question.reportedByMe ? "Reported" : `Report question from ${question.askerFirstName}`
            }
            onClick={() =>
              runMutation(report.mutateAsync(question.id), {
                success: { title: "Thanks, our team will look at this question" },
                error: { title: "The question could not be reported" },
              })
            }
          >
            <Flag aria-hidden /> {question.reportedByMe ? "Reported" : "Report"}
          </Button>
        )}
        {isAdmin && question.reportsCount !== null && question.reportsCount > 0 && (
          <span className="text-sm text-muted-foreground">
            {question.reportsCount} {question.reportsCount === 1 ? "report" : "reports"}
          </span>
        )}
        {isAdmin && <Moderation question={question} />}
      </div>
    </li>
  );
}
