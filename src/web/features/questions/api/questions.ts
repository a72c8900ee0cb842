import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Question, QuestionList, SellerQuestionList } from "#domain/questions";
import { api } from "#web/lib/api";

/** A product's pages and the seller's dashboard both sit under ["questions"]: one answer refreshes both. */
const questionsKey = ["questions"] as const;

export function useQuestions(productId: string, page: number) {
  return useQuery({
    queryKey: [...questionsKey, "product", productId, page],
    queryFn: () =>
      api<QuestionList>(`/products/${encodeURIComponent(productId)}/questions`, { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useSellerQuestions(page: number) {
  return useQuery({
    queryKey: [...questionsKey, "seller", page],
    queryFn: () => api<SellerQuestionList>("/seller/questions", { query: { page } }),
    placeholderData: keepPreviousData,
  });
}

function useQuestionMutation<V>(mutationFn: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: questionsKey }),
  });
}

export const useAskQuestion = (productId: string) =>
  useQuestionMutation((text: string) =>
    api<Question>(`/products/${encodeURIComponent(productId)}/questions`, { method: "POST", body: { text } }),
  );

export const useAnswerQuestion = () =>
  useQuestionMutation(({ questionId, text }: { questionId: string; text: string }) =>
    api<Question>(`/questions/${encodeURIComponent(questionId)}/answer`, { method: "PUT", body: { text } }),
  );

export const useReportQuestion = () =>
  useQuestionMutation((questionId: string) =>
    api<null>(`/questions/${encodeURIComponent(questionId)}/report`, { method: "POST" }),
  );

export const useModerateQuestion = () =>
  useQuestionMutation(
    ({ questionId, action, reason }: { questionId: string; action: "hide" | "restore"; reason: string }) =>
      api<Question>(`/admin/questions/${encodeURIComponent(questionId)}/${action}`, {
        method: "POST",
        body: { reason },
      }),
  );
