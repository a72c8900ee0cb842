import { useMutation } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/**
 * Fetches the licence's signed offline file and saves it as `stackbay-license-<key>.json`. Fetched rather
 * than linked, so a refusal (a suspended or ended licence) is told in words instead of saved as a file.
 * The payload stays the exact text that was signed: it is a string inside the file.
 */
export async function downloadLicenseFile({ id, key }: { id: string; key: string }): Promise<void> {
  const file = await call("GET /licenses/:id/file", { params: { id } });
  const blob = new Blob([`${JSON.stringify(file, null, 2)}\n`], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = `stackbay-license-${key}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useDownloadLicenseFile() {
  return useMutation({ mutationFn: downloadLicenseFile });
}
