import { Copy, Info, Link2, Search } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import type { Me } from "#domain/accounts";
import { commissionStatusLabel } from "#domain/commissions";
import { formatUsd } from "#domain/money";
import type { ResellerLink, ResellerLinks } from "#domain/referrals";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import { ViewCard } from "#web/components/layout/view-card";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { LoadError } from "#web/components/ui/load-error";
import { Table, TableFrame } from "#web/components/ui/table";
import { Amount } from "#web/features/currency/components/totals-list";
import { useMoney } from "#web/features/currency/use-money";
import { useResellerLinks } from "#web/features/referrals/api/get-reseller-links";
import { copyText } from "#web/lib/clipboard";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { cn } from "#web/lib/utils";

const TITLE = "Reseller links";
const columns = [
  "Product",
  "Commission rate",
  "Clicks",
  "Orders",
  "Pending",
  "Approved",
  "Cancelled",
  "Link",
];

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;
const percent = (rate: number) => `${(rate * 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;

/** The dashboard's reseller view: links to share, and the clicks, orders and commission they brought. */
export function ResellerView({ me }: { me: Me }) {
  if (!me.roles.isReseller) return <NotAReseller />;
  return <ResellerLinksView />;
}

function NotAReseller() {
  return (
    <ViewCard title={TITLE} description="Earn commission by sharing Stackbay products.">
      <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
        <Link2 className="size-10 text-muted-foreground" aria-hidden />
        <h3 className="text-lg font-semibold">Become a reseller</h3>
        <p className="max-w-md text-sm text-muted-foreground">
          Resellers get a personal link for every product sellers open to reselling, and earn commission on
          the orders those links bring in. Reseller links are available once your account has reseller rights.
        </p>
        <Button asChild className="mt-2">
          <Link to={paths.partner()}>Apply on the Partner page</Link>
        </Button>
      </div>
    </ViewCard>
  );
}

function ResellerLinksView() {
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useDebouncedInput(search, (typed) => {
    setSearch(typed);
    setPage(1);
  });
  const links = useResellerLinks({ search, page });
  const money = useMoney();
  const description =
    money.currency.code === "USD"
      ? "Share a product's link; orders placed within 30 days of a click earn you its commission."
      : `Share a product's link; orders placed within 30 days of a click earn you its commission. Amounts are shown in ${money.currency.name}; commission is earned in USD.`;
  return (
    <ViewCard title={TITLE} description={description}>
      {links.isPending ? (
        <LinksSkeleton />
      ) : links.isError ? (
        <LoadError
          title="Failed to load your reseller links"
          error={links.error}
          onRetry={() => void links.refetch()}
        />
      ) : (
        <div className="flex flex-col gap-6">
          <TotalsCards totals={links.data.totals} />
          <p className="flex gap-2 rounded-md bg-muted/50 px-3 py-2 text-sm text-muted-foreground">
            <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
            {`Commission stays pending for ${days(links.data.refundWindowDays)} after the order (the refund window), then it is approved; a refund cancels it.`}
          </p>
          {links.data.totals.held > 0 && (
            <p
              className="flex gap-2 rounded-md bg-muted/50 px-3 py-2 text-sm text-muted-foreground"
              data-testid="reseller-held-note"
            >
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
              Some commission is on hold while Stackbay reviews the orders it came from. Once reviewed it
              either joins your pending commission or is cancelled.
            </p>
          )}
          {links.data.total === 0 && !search ? (
            <NoProducts />
          ) : (
            <div className="flex flex-col gap-3">
              <search className="relative max-w-sm">
                <Search
                  className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
                  aria-hidden
                />
                <label htmlFor="reseller-link-search" className="sr-only">
                  Search your links
                </label>
                <Input
                  id="reseller-link-search"
                  type="search"
                  placeholder="Product or category"
                  className="pl-9"
                  maxLength={100}
                  value={searchText}
                  onChange={(event) => setSearchText(event.target.value)}
                />
              </search>
              <PagedList
                query={links}
                what="your reseller links"
                empty={`No products match "${search}".`}
                onPage={setPage}
              >
                {(items) => <LinksTable items={items} />}
              </PagedList>
            </div>
          )}
        </div>
      )}
    </ViewCard>
  );
}

function TotalsCards({ totals }: { totals: ResellerLinks["totals"] }) {
  const money = useMoney();
  const counts = [
    { label: "Clicks", value: totals.clicks, testId: "reseller-total-clicks" },
    { label: "Orders", value: totals.orders, testId: "reseller-total-orders" },
  ];
  const amounts = [
    { label: "Pending commission", value: totals.pending, testId: "reseller-total-pending" },
    // Only shown when there is some: most resellers never have a held order.
    ...(totals.held > 0
      ? [{ label: "Commission on hold", value: totals.held, testId: "reseller-total-held" }]
      : []),
    { label: "Approved commission", value: totals.approved, testId: "reseller-total-approved" },
    { label: "Cancelled commission", value: totals.cancelled, testId: "reseller-total-cancelled" },
  ];
  const card = "flex flex-col gap-1 rounded-lg border border-border p-4";
  return (
    <dl
      className={cn(
        "grid grid-cols-2 gap-3 sm:grid-cols-3",
        amounts.length > 3 ? "lg:grid-cols-3" : "lg:grid-cols-5",
      )}
    >
      {counts.map((item) => (
        <div key={item.label} className={card}>
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid={item.testId}>
            {item.value.toLocaleString("en-US")}
          </dd>
        </div>
      ))}
      {amounts.map((item) => (
        <div key={item.label} className={card}>
          <dt className="text-sm text-muted-foreground">{item.label}</dt>
          <dd className="text-2xl font-semibold tabular-nums" data-testid={item.testId}>
            <Amount usd={item.value} />
          </dd>
          {money.currency.code !== "USD" && (
            // The display currency is an estimate; the USD figure is what is paid.
            <dd className="text-xs text-muted-foreground tabular-nums">{formatUsd(item.value)} USD</dd>
          )}
        </div>
      ))}
    </dl>
  );
}

function LinksTable({ items }: { items: ResellerLink[] }) {
  return (
    // Too narrow for eight columns (a phone, a tablet), the rows become stacked cards (TableFrame).
    <TableFrame aria-label="Your links" className="rounded-sm border-0">
      <Table className="min-w-[48rem]" data-testid="reseller-links">
        <thead className="border-b border-border text-muted-foreground">
          <tr>
            {columns.map((column, index) => (
              <th
                key={column}
                scope="col"
                className={cn("px-2 py-2 font-medium first:pl-0 last:pr-0", index > 0 && "text-right")}
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {items.map((item) => (
            <LinkRow key={item.productId} item={item} />
          ))}
        </tbody>
      </Table>
    </TableFrame>
  );
}

function LinkRow({ item }: { item: ResellerLink }) {
  const money = useMoney();
  const copy = () => copyText(item.link, { title: "Link copied", description: item.name }, "link");
  return (
    <tr data-testid="reseller-link-row">
      <td className="py-3 pr-2">
        <Link to={paths.product(item.productId)} className="font-medium hover:underline">
          {item.name}
        </Link>
        <div className="text-xs text-muted-foreground">
          {money.ready ? money.price(item.price, { productName: item.name }) : "\u00a0"}
        </div>
        {item.linkable ? (
          <code
            className="mt-1 block max-w-[15rem] truncate font-mono text-xs text-muted-foreground"
            title={item.link}
            data-testid="reseller-link"
          >
            {item.link}
          </code>
        ) : (
          <p className="mt-1 text-xs text-muted-foreground">No longer offered for reselling</p>
        )}
      </td>
      <td className="px-2 py-3 text-right tabular-nums">{percent(item.commissionRate)}</td>
      <td className="px-2 py-3 text-right tabular-nums" data-testid="reseller-link-clicks">
        {item.clicks}
      </td>
      <td className="px-2 py-3 text-right tabular-nums">{item.orders}</td>
      <td className="px-2 py-3 text-right tabular-nums">
        <span data-testid="reseller-link-pending">
          <Amount usd={item.commission.pending} />
        </span>
        {item.commission.held > 0 && (
          <span className="block text-xs text-muted-foreground" data-testid="reseller-link-held">
            + <Amount usd={item.commission.held} /> {commissionStatusLabel.held.toLowerCase()}
          </span>
        )}
      </td>
      <td className="px-2 py-3 text-right tabular-nums" data-testid="reseller-link-approved">
        <Amount usd={item.commission.approved} />
      </td>
      <td className="px-2 py-3 text-right tabular-nums" data-testid="reseller-link-cancelled">
        <Amount usd={item.commission.cancelled} />
      </td>
      <td className="py-3 pl-2 text-right">
        {item.linkable && (
          <Button
            variant="outline"
            size="sm"
            className="whitespace-nowrap"
            onClick={copy}
            aria-label={`Copy link for ${item.name}`}
          >
            <Copy aria-hidden /> Copy link
          </Button>
        )}
      </td>
    </tr>
  );
}

function LinksSkeleton() {
  return (
    <div role="status" aria-label="Loading reseller links" className="flex flex-col gap-3">
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {[0, 1, 2, 3, 4].map((card) => (
          <div key={card} className="h-20 animate-pulse rounded-lg bg-muted" aria-hidden />
        ))}
      </div>
      {[0, 1, 2].map((row) => (
        <div key={row} className="h-10 animate-pulse rounded bg-muted" aria-hidden />
      ))}
    </div>
  );
}

function NoProducts() {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <Link2 className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">No products to promote yet</h3>
      <p className="max-w-sm text-sm text-muted-foreground">
        When sellers open products to reselling, your personal links for them will appear here.
      </p>
    </div>
  );
}
