import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { themeStore } from "#web/features/theme/theme-store";
import { createQueryClient } from "#web/lib/query-client";
import { useAfterFirstPaint } from "#web/lib/use-after-first-paint";

// Its own chunk: toasts come after an action, never in the first paint (see lib/lazy-toast).
const Toaster = lazy(() => import("sonner").then(({ Toaster }) => ({ default: Toaster })));

/** `client` is given when the page was rendered on the server: it starts with the data the page was drawn from. */
export function AppProvider({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const theme = themeStore.use();
  // sonner keeps toasts raised before the Toaster mounts and shows them when it does.
  const afterFirstPaint = useAfterFirstPaint();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      {afterFirstPaint && (
        <Suspense fallback={null}>
          <Toaster theme={theme} position="bottom-right" visibleToasts={3} duration={4000} closeButton />
        </Suspense>
      )}
    </QueryClientProvider>
  );
}
