import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LicenseList } from "#domain/license-schemas";
import { licensesQueryOptions } from "#web/features/licenses/api/get-licenses";
import { call } from "#web/lib/api";

/** Deactivates one of the buyer's licences on a machine, freeing its seat; answers the licence. */
export const deactivateActivation = (input: { id: string; activationId: string }) =>
  call("DELETE /licenses/:id/activations/:activationId", { params: input });

export function useDeactivateActivation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateActivation,
    onSuccess: (license) =>
      queryClient.setQueryData<LicenseList>(licensesQueryOptions().queryKey, (list) =>
        list ? { items: list.items.map((item) => (item.id === license.id ? license : item)) } : list,
      ),
  });
}
