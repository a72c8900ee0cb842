import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApplicationStatus } from "#domain/inbound";
import { call } from "#web/lib/api";

export const updateApplication = ({ id, status }: { id: string; status: ApplicationStatus }) =>
  call("PATCH /admin/inbox/applications/:id", { params: { id }, body: { status } });

export function useUpdateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["inbox", "applications"] }),
  });
}
