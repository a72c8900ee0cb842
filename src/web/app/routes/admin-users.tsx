import { type UserRoleFilter, userRoleFilters } from "#domain/admin-users";
import { PageHeader } from "#web/components/layout/page-header";
import { PagedList } from "#web/components/layout/paged-list";
import { FormField } from "#web/components/ui/form-field";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import { ScrollTable } from "#web/components/ui/table";
import { useMe } from "#web/features/auth/api/get-me";
import { RequireRole } from "#web/features/auth/components/guards";
import { type AdminUsersFilter, useAdminUsers } from "#web/features/users/api/get-admin-users";
import { UserRow } from "#web/features/users/components/user-row";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { useSearchState } from "#web/lib/use-search-state";

const columns = ["Name", "E-mail", "Verified", "Roles", "Status", "Joined", "Access", "Account"];

const isRoleFilter = (value: string | null): value is UserRoleFilter =>
  userRoleFilters.some((f) => f.value === value);

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <UsersScreen />
    </RequireRole>
  );
}

function UsersScreen() {
  const { params, page, go } = useSearchState();
  const search = params.get("search") ?? "";
  const rawRole = params.get("role");
  const role = isRoleFilter(rawRole) ? rawRole : undefined;
  const [searchText, setSearchText] = useDebouncedInput(search, (typed) =>
    go({ search: typed, page: undefined }),
  );

  return (
    <>
      <PageHeader
        title="Users"
        subtitle="Grant or revoke roles and disable accounts. Changes apply at once and are recorded in the audit log."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <search className="mb-6 grid gap-3 sm:grid-cols-[1fr_14rem]">
          <FormField label="Search users">
            <Input
              type="search"
              placeholder="E-mail or name"
              maxLength={200}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </FormField>
          <FormField label="Role">
            <NativeSelect value={role ?? ""} onChange={(e) => go({ role: e.target.value, page: undefined })}>
              <option value="">All users</option>
              {userRoleFilters.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </search>
        <UsersList
          filter={{ search: search || undefined, role, page }}
          onPage={(p) => go({ page: String(p) })}
        />
      </div>
    </>
  );
}

function UsersList({ filter, onPage }: { filter: AdminUsersFilter; onPage: (page: number) => void }) {
  const { data: me } = useMe();
  const filtered = Boolean(filter.search || filter.role);
  return (
    <PagedList
      query={useAdminUsers(filter)}
      what="users"
      empty={filtered ? "No users match these filters." : "No users yet."}
      onPage={onPage}
    >
      {(items) => (
        <ScrollTable label="Users" columns={columns} minWidth="min-w-[68rem]" testId="admin-users-table">
          {items.map((user) => (
            <UserRow key={user.id} user={user} isMe={user.id === me?.id} />
          ))}
        </ScrollTable>
      )}
    </PagedList>
  );
}
