import { ScreenPending } from "#web/components/layout/screen-pending";

export function Component() {
  return <ScreenPending title="Stackbay" purpose="A page from Stackbay's content library." />;
}
