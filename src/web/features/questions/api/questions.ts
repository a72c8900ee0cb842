import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** A product's pages and the seller's dashboard both sit under ["questions"]: one answer refreshes both. */
const questionsKey = ["questions"] as const;

export function useQuestions(productId: string, page: number) {
  return useQuery({
    queryKey: [...questionsKey, "product", productId, page],
    queryFn: () => call("GET /products/:id/questions", { params: { id: productId }, query: { page } }),
    placeholderData: keepPreviousData,
  });
}

export function useSellerQuestions(page: number) {
  return useQuery({
    queryKey: [...questionsKey, "seller", page],
    queryFn: () => call("GET /seller/questions", { query: { page } }),
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
    call("POST /products/:id/questions", { params: { id: productId }, body: { text } }),
  );

export const useAnswerQuestion = () =>
  useQuestionMutation(({ questionId, text }: { questionId: string; text: string }) =>
    call("PUT /questions/:id/answer", { params: { id: questionId }, body: { text } }),
  );

export const useReportQuestion = () =>
  useQuestionMutation((questionId: string) =>
    call("POST /questions/:id/report", { params: { id: questionId } }),
  );

export const useModerateQuestion = () =>
  useQuestionMutation(
    ({ questionId, action, reason }: { questionId: string; action: "hide" | "restore"; reason: string }) =>
      call(`POST /admin/questions/:id/${action}`, { params: { id: questionId }, body: { reason } }),
  );
