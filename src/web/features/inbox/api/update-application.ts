import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApplicationStatus, InboxApplication } from "#domain/inbound";
import { api } from "#web/lib/api";

export const updateApplication = ({ id, status }: { id: string; status: ApplicationStatus }) =>
  api<{ application: InboxApplication; sellerGranted: boolean }>(
    `/admin/inbox/applications/${encodeURIComponent(id)}`,
    { method: "PATCH", body: { status } },
  );

export function useUpdateApplication() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["inbox", "applications"] }),
  });
}
