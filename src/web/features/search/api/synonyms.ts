import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SynonymInput } from "#domain/search";
import { call } from "#web/lib/api";

const synonymsKey = ["admin", "search", "synonyms"] as const;

export function useSynonyms() {
  return useQuery({ queryKey: synonymsKey, queryFn: () => call("GET /admin/search/synonyms") });
}

/** Adds a word's synonyms, or changes them when `id` is given. */
export function useSaveSynonym() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: SynonymInput & { id?: string }) =>
      id
        ? call("PUT /admin/search/synonyms/:id", { params: { id }, body: input })
        : call("POST /admin/search/synonyms", { body: input }),
    onSuccess: () => {
      // Searches and suggestions now expand differently.
      void queryClient.invalidateQueries({ queryKey: synonymsKey });
      void queryClient.invalidateQueries({ queryKey: ["products"] });
      void queryClient.invalidateQueries({ queryKey: ["search"] });
    },
  });
}

export function useDeleteSynonym() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call("DELETE /admin/search/synonyms/:id", { params: { id } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: synonymsKey });
      void queryClient.invalidateQueries({ queryKey: ["products"] });
      void queryClient.invalidateQueries({ queryKey: ["search"] });
    },
  });
}
