import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Synonym, SynonymInput, SynonymList } from "#domain/search";
import { api } from "#web/lib/api";

const synonymsKey = ["admin", "search", "synonyms"] as const;

export function useSynonyms() {
  return useQuery({ queryKey: synonymsKey, queryFn: () => api<SynonymList>("/admin/search/synonyms") });
}

/** Adds a word's synonyms, or changes them when `id` is given. */
export function useSaveSynonym() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: SynonymInput & { id?: string }) =>
      api<Synonym>(id ? `/admin/search/synonyms/${id}` : "/admin/search/synonyms", {
        method: id ? "PUT" : "POST",
        body: input,
      }),
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
    mutationFn: (id: string) => api<{ ok: true }>(`/admin/search/synonyms/${id}`, { method: "DELETE" }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: synonymsKey });
      void queryClient.invalidateQueries({ queryKey: ["products"] });
      void queryClient.invalidateQueries({ queryKey: ["search"] });
    },
  });
}
