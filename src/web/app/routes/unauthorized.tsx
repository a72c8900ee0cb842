import { DocumentTitle } from "#web/components/layout/document-head";
import { useMe } from "#web/features/auth/api/get-me";
import { UnauthorizedScreen } from "#web/features/auth/components/unauthorized-screen";

export function Component() {
  const { data: me } = useMe();
  return (
    <>
      <DocumentTitle>Unauthorized Access | Stackbay</DocumentTitle>
      <UnauthorizedScreen signedIn={Boolean(me)} />
    </>
  );
}
