import { ScreenPending } from "#web/components/layout/screen-pending";
import { RequireRole } from "#web/features/auth/components/guards";

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <ScreenPending title="Audit Log" purpose="Being built." />
    </RequireRole>
  );
}
