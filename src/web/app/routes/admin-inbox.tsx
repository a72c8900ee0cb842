import { Download, Inbox, Mail, Store } from "lucide-react";
import type { ReactNode } from "react";
import { formatDate, formatDateTime } from "#domain/dates";
import {
  type ApplicationStatus,
  applicationStatuses,
  companySizes,
  contactSubjects,
  partnerCountries,
  productTypes,
} from "#domain/inbound";
import { PageHeader } from "#web/components/layout/page-header";
import { PagedList } from "#web/components/layout/paged-list";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Card } from "#web/components/ui/card";
import { FormField } from "#web/components/ui/form-field";
import { NativeSelect } from "#web/components/ui/select";
import {
  Table,
  TableBody,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from "#web/components/ui/table";
import { RequireAdmin } from "#web/features/auth/components/guards";
import { useApplications } from "#web/features/inbox/api/get-applications";
import { useMessages } from "#web/features/inbox/api/get-messages";
import { subscribersCsvUrl, useSubscribers } from "#web/features/inbox/api/get-subscribers";
import { useUpdateApplication } from "#web/features/inbox/api/update-application";
import { runMutation } from "#web/lib/mutation";
import { useSearchState } from "#web/lib/use-search-state";

const tabs = [
  { key: "messages", label: "Messages", icon: Mail },
  { key: "applications", label: "Partner applications", icon: Store },
  { key: "subscribers", label: "Subscribers", icon: Inbox },
] as const;
type Tab = (typeof tabs)[number]["key"];

const labelOf = (options: readonly { value: string; label: string }[], value: string) =>
  options.find((o) => o.value === value)?.label ?? value;

export function Component() {
  return (
    <RequireAdmin>
      <InboxScreen />
    </RequireAdmin>
  );
}

function InboxScreen() {
  const { params, page, go } = useSearchState();
  const tab: Tab = tabs.some((t) => t.key === params.get("tab")) ? (params.get("tab") as Tab) : "messages";

  return (
    <>
      <PageHeader
        title="Inbox"
        subtitle="Messages from the contact form, applications to sell on Stackbay and newsletter subscribers."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <nav aria-label="Inbox sections" className="flex flex-wrap gap-2 border-b border-border pb-3">
          {tabs.map(({ key, label, icon: Icon }) => (
            <Button
              key={key}
              variant={tab === key ? "default" : "ghost"}
              size="sm"
              aria-current={tab === key ? "page" : undefined}
              onClick={() => go({ tab: key, page: undefined, status: undefined })}
            >
              <Icon aria-hidden /> {label}
            </Button>
          ))}
        </nav>
        <div className="mt-6">
          {tab === "messages" && <Messages page={page} onPage={(p) => go({ page: String(p) })} />}
          {tab === "applications" && (
            <Applications
              page={page}
              status={(params.get("status") as ApplicationStatus | null) ?? undefined}
              onPage={(p) => go({ page: String(p) })}
              onStatus={(s) => go({ status: s, page: undefined })}
            />
          )}
          {tab === "subscribers" && <Subscribers page={page} onPage={(p) => go({ page: String(p) })} />}
        </div>
      </div>
    </>
  );
}

function Messages({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  return (
    <PagedList query={useMessages(page)} what="messages" empty="No messages yet." onPage={onPage}>
      {(items) => (
        <ul className="grid gap-4">
          {items.map((m) => (
            <Card asChild key={m.id} className="p-5" flat>
              <li>
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 className="font-semibold">
                    {m.name}{" "}
                    <a
                      href={`mailto:${m.email}`}
                      className="text-sm font-normal text-primary underline underline-offset-2"
                    >
                      {m.email}
                    </a>
                  </h2>
                  <time dateTime={m.createdAt} className="text-xs text-muted-foreground">
                    {formatDateTime(m.createdAt)}
                  </time>
                </div>
                <Badge variant="secondary" className="mt-2">
                  {labelOf(contactSubjects, m.subject)}
                </Badge>
                <p className="mt-3 text-sm whitespace-pre-line">{m.message}</p>
              </li>
            </Card>
          ))}
        </ul>
      )}
    </PagedList>
  );
}

function Applications({
  page,
  status,
  onPage,
  onStatus,
}: {
  page: number;
  status?: ApplicationStatus;
  onPage: (page: number) => void;
  onStatus: (status?: ApplicationStatus) => void;
}) {
  const update = useUpdateApplication();
  const change = async (id: string, next: ApplicationStatus, company: string) => {
    await runMutation(update.mutateAsync({ id, status: next }), {
      success: ({ sellerGranted }) => ({
        title: `${company}: ${labelOf(applicationStatuses, next)}`,
        description:
          next === "approved"
            ? sellerGranted
              ? "The applicant's Stackbay account now has seller rights."
              : "No Stackbay account uses this e-mail address yet; grant seller rights once they sign up."
            : undefined,
      }),
      error: { title: "Status not changed" },
    });
  };

  return (
    <>
      <FormField label="Show" className="mb-4 max-w-xs">
        <NativeSelect
          value={status ?? ""}
          onChange={(e) => onStatus((e.target.value || undefined) as ApplicationStatus | undefined)}
        >
          <option value="">All applications</option>
          {applicationStatuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </NativeSelect>
      </FormField>
      <PagedList
        query={useApplications(page, status)}
        what="applications"
        empty="No applications here."
        onPage={onPage}
      >
        {(items) => (
          <ul className="grid gap-4">
            {items.map((a) => (
              <Card asChild key={a.id} className="p-5" flat>
                <li>
                  <div className="flex flex-wrap items-start justify-between gap-4">
                    <div>
                      <h2 className="font-semibold">{a.companyName}</h2>
                      <p className="text-sm text-muted-foreground">
                        {a.contactPerson} ·{" "}
                        <a href={`mailto:${a.email}`} className="text-primary underline underline-offset-2">
                          {a.email}
                        </a>{" "}
                        · applied {formatDate(a.createdAt)}
                      </p>
                    </div>
                    <FormField label="Status" className="w-40">
                      <NativeSelect
                        value={a.status}
                        disabled={update.isPending}
                        onChange={(e) => change(a.id, e.target.value as ApplicationStatus, a.companyName)}
                      >
                        {applicationStatuses.map((s) => (
                          <option key={s.value} value={s.value}>
                            {s.label}
                          </option>
                        ))}
                      </NativeSelect>
                    </FormField>
                  </div>
                  <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2 lg:grid-cols-4">
                    <Fact term="Product type" value={labelOf(productTypes, a.productType)} />
                    <Fact term="Country" value={labelOf(partnerCountries, a.country)} />
                    <Fact term="Company size" value={labelOf(companySizes, a.companySize)} />
                    <Fact
                      term="Website"
                      value={
                        <a
                          href={a.website}
                          rel="noopener noreferrer nofollow"
                          className="text-primary underline underline-offset-2"
                        >
                          {a.website}
                        </a>
                      }
                    />
                  </dl>
                  <p className="mt-3 text-sm whitespace-pre-line">{a.message}</p>
                </li>
              </Card>
            ))}
          </ul>
        )}
      </PagedList>
    </>
  );
}

function Fact({ term, value }: { term: string; value: ReactNode }) {
  return (
    <div>
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="truncate">{value}</dd>
    </div>
  );
}

const subscriberBadge = {
  confirmed: "success",
  pending: "outline",
  unsubscribed: "secondary",
} as const;

function Subscribers({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          Only confirmed, active addresses go into the export; pending ones never clicked their link.
        </p>
        <Button asChild variant="outline" size="sm">
          <a href={subscribersCsvUrl} download>
            <Download aria-hidden /> Export CSV
          </a>
        </Button>
      </div>
      <PagedList query={useSubscribers(page)} what="subscribers" empty="No subscribers yet." onPage={onPage}>
        {(items) => (
          <TableFrame aria-label="Subscribers">
            <Table>
              <TableHeader>
                <TableHead>E-mail</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Subscribed</TableHead>
                <TableHead>Confirmed</TableHead>
              </TableHeader>
              <TableBody>
                {items.map((s) => (
                  <TableRow key={s.email}>
                    <TableCell>{s.email}</TableCell>
                    <TableCell>
                      <Badge variant={subscriberBadge[s.status]} className="capitalize">
                        {s.status}
                      </Badge>
                    </TableCell>
                    <TableCell>{formatDate(s.createdAt)}</TableCell>
                    <TableCell>{s.confirmedAt ? formatDate(s.confirmedAt) : "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        )}
      </PagedList>
    </>
  );
}
