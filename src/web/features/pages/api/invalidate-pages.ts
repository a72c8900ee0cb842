import type { QueryClient } from "@tanstack/react-query";
import { adminPagesKey } from "#web/features/pages/api/get-admin-pages";
import { publicPagesKey } from "#web/features/pages/api/get-page";

/** After any page change: the admin lists and pages, and the public pages visitors may have open. */
export const invalidatePages = (queryClient: QueryClient) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: adminPagesKey }),
    queryClient.invalidateQueries({ queryKey: publicPagesKey }),
  ]);
