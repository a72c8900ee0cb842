import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Toaster } from "sonner";
import { themeStore } from "#web/features/theme/theme-store";
import { createQueryClient } from "#web/lib/query-client";

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  const theme = themeStore.use();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster theme={theme} position="bottom-right" visibleToasts={3} duration={4000} closeButton />
    </QueryClientProvider>
  );
}
