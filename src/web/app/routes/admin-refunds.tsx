import { ScreenPending } from "#web/components/layout/screen-pending";
import { RequireAdmin } from "#web/features/auth/components/guards";

export function Component() {
  return (
    <RequireAdmin>
      <ScreenPending title="Refunds" purpose="Being built." />
    </RequireAdmin>
  );
}
