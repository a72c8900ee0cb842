import { useState } from "react";
import { hasRole, type Me } from "#domain/accounts";
import { PagedList } from "#web/components/layout/paged-list";
import { ViewCard } from "#web/components/layout/view-card";
import { useSellerQuestions } from "#web/features/questions/api/questions";
import { QuestionItem } from "#web/features/questions/components/question-item";

/** The seller's "Questions" view: questions about their products, unanswered first, answered in place. */
export function SellerQuestionsView({ me }: { me: Me }) {
  const seller = hasRole(me.roles, "seller");
  return (
    <ViewCard
      title="Questions"
      description="What buyers ask about your products. A question shows on the product page once you answer it, and the buyer is e-mailed your answer."
    >
      {seller ? (
        <QuestionList isAdmin={hasRole(me.roles, "admin")} />
      ) : (
        <p className="text-sm text-muted-foreground">Questions are for sellers of products.</p>
      )}
    </ViewCard>
  );
}

function QuestionList({ isAdmin }: { isAdmin: boolean }) {
  const [page, setPage] = useState(1);
  const questions = useSellerQuestions(page);
  const unanswered = questions.data?.unanswered ?? 0;
  return (
    <div className="flex flex-col gap-2">
      {questions.data && (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {unanswered === 0
            ? "Every question is answered."
            : `${unanswered} ${unanswered === 1 ? "question waits" : "questions wait"} for your answer.`}
        </p>
      )}
      <PagedList
        query={questions}
        what="questions"
        empty="No questions yet. Questions buyers ask on your product pages appear here."
        onPage={setPage}
      >
        {(items) => (
          <ul className="divide-y divide-border" aria-label="Questions about your products">
            {items.map((question) => (
              <QuestionItem
                key={question.id}
                question={question}
                signedIn
                isAdmin={isAdmin}
                context={question.productName}
              />
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  );
}
