import { useMe } from "#web/features/auth/api/get-me";
import { UnauthorizedScreen } from "#web/features/auth/components/unauthorized-screen";

export function Component() {
  const { data: me } = useMe();
  return (
    <>
      <title>Unauthorized Access | Stackbay</title>
      <UnauthorizedScreen signedIn={Boolean(me)} />
    </>
  );
}
