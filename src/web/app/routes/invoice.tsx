import { ScreenPending } from "#web/components/layout/screen-pending";
import { RequireUser } from "#web/features/auth/components/guards";

export function Component() {
  return (
    <RequireUser>
      <ScreenPending title="Invoice" purpose="Being built." />
    </RequireUser>
  );
}
