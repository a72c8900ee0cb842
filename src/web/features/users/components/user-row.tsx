import { useId, useState } from "react";
import { type AdminUser, type AdminUserUpdate, describeUserUpdate, editableRoles } from "#domain/admin-users";
import { formatDate } from "#domain/dates";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { TableCell, TableRow } from "#web/components/ui/table";
import { useTrustSeller } from "#web/features/users/api/trust-seller";
import { useUpdateUser } from "#web/features/users/api/update-user";
import { runMutation } from "#web/lib/mutation";

type Access = Pick<AdminUser, "isSeller" | "isReseller" | "isAdmin" | "isSuperAdmin" | "disabled">;

const roleBadges = [
  { key: "isBuyer", label: "Buyer" },
  { key: "isSeller", label: "Seller" },
  { key: "isReseller", label: "Reseller" },
  { key: "isAdmin", label: "Admin" },
  { key: "isSuperAdmin", label: "Super admin" },
] as const;

const fullName = (user: AdminUser) => `${user.firstName} ${user.lastName}`.trim() || "—";

/** One account with its role toggles and the Disable/Enable control; `isMe` marks the signed-in super admin. */
export function UserRow({ user, isMe }: { user: AdminUser; isMe: boolean }) {
  const update = useUpdateUser();
  const hintId = useId();
  // What the super admin just chose, shown until the reloaded list has it; dropped on failure so the
  // controls return to the saved values.
  const [draft, setDraft] = useState<Access | null>(null);
  const shown: Access = draft ?? user;

  const change = async (patch: AdminUserUpdate) => {
    setDraft({ ...shown, ...patch });
    await runMutation(update.mutateAsync({ id: user.id, patch }), {
      success: { title: "User updated", description: `${describeUserUpdate(patch)} for ${user.email}.` },
      error: { title: "Failed to update user" },
    });
    setDraft(null);
  };

  return (
    <TableRow className="align-top" data-testid="admin-user-row">
      <TableCell className="font-medium">
        {fullName(user)}
        {isMe && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
      </TableCell>
      <TableCell className="whitespace-nowrap">{user.email}</TableCell>
      <TableCell>{user.emailVerified ? "Yes" : "No"}</TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1" data-testid="admin-user-roles">
          {roleBadges
            .filter(({ key }) => user[key])
            .map(({ key, label }) => (
              <Badge key={key} variant={key === "isBuyer" ? "outline" : "secondary"}>
                {label}
              </Badge>
            ))}
        </div>
      </TableCell>
      <TableCell data-testid="admin-user-status">
        {user.disabled ? (
          <Badge variant="outline" className="border-destructive text-destructive">
            Disabled
          </Badge>
        ) : (
          <Badge variant="success">Active</Badge>
        )}
      </TableCell>
      <TableCell className="whitespace-nowrap">
        <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
      </TableCell>
      <TableCell>
        <fieldset className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1.5">
          <legend className="sr-only">Roles of {user.email}</legend>
          {editableRoles.map(({ key, label }) => (
            <label key={key} className="flex items-center gap-2 whitespace-nowrap">
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={shown[key]}
                disabled={update.isPending}
                onChange={(e) => change({ [key]: e.target.checked })}
              />
              {label}
              <span className="sr-only"> ({user.email})</span>
            </label>
          ))}
        </fieldset>
        {user.isSeller && <TrustedSellerToggle user={user} />}
      </TableCell>
      <TableCell>
        {shown.disabled ? (
          <Button
            variant="outline"
            size="sm"
            disabled={update.isPending}
            onClick={() => change({ disabled: false })}
          >
            Enable<span className="sr-only"> {user.email}</span>
          </Button>
        ) : (
          <AlertDialog>
            <AlertDialogTrigger asChild>
              <Button
                variant="outline"
                size="sm"
                className="border-destructive/60 text-destructive hover:bg-destructive/10 hover:text-destructive"
                disabled={isMe || update.isPending}
                aria-describedby={isMe ? hintId : undefined}
              >
                Disable<span className="sr-only"> {user.email}</span>
              </Button>
            </AlertDialogTrigger>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>Disable {user.email}?</AlertDialogTitle>
                <AlertDialogDescription>
                  Their sessions end at once and they cannot sign in until re-enabled.
                </AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <AlertDialogAction variant="destructive" onClick={() => change({ disabled: true })}>
                  Disable account
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        )}
        {isMe && (
          <p id={hintId} className="mt-1.5 max-w-40 text-xs text-muted-foreground">
            You can't disable your own account.
          </p>
        )}
      </TableCell>
    </TableRow>
  );
}

/** Whether the seller's listings skip review (decision 0013): its own route, audited like the roles. */
function TrustedSellerToggle({ user }: { user: AdminUser }) {
  const trust = useTrustSeller();
  const [draft, setDraft] = useState<boolean | null>(null);
  const change = async (trusted: boolean) => {
    setDraft(trusted);
    await runMutation(trust.mutateAsync({ userId: user.id, trusted }), {
      success: {
        title: "User updated",
        description: `${trusted ? "Trusted" : "No longer trusted"} seller: ${user.email}.`,
      },
      error: { title: "Failed to update user" },
    });
    setDraft(null);
  };
  return (
    <label className="mt-2 flex items-center gap-2 whitespace-nowrap">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={draft ?? user.isTrustedSeller}
        disabled={trust.isPending}
        onChange={(e) => change(e.target.checked)}
      />
      Trusted seller
      <span className="sr-only"> ({user.email}): listings skip review</span>
    </label>
  );
}
