import { ScreenPending } from "#web/components/layout/screen-pending";
import { RequireRole } from "#web/features/auth/components/guards";

export function Component() {
  return (
    <RequireRole allow="admin">
      <ScreenPending title="Add Product" purpose="Being built." />
    </RequireRole>
  );
}
