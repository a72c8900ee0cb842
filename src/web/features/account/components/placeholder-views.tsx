import { CreditCard, Heart, type LucideIcon, Plus, ShoppingBag, Wallet } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { formatUsd } from "#domain/money";
import { Button } from "#web/components/ui/button";
import { paths } from "#web/paths";

/** A titled card for one dashboard view. */
export function ViewCard({
  title,
  description,
  action,
  children,
}: {
  title: string;
  description?: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-lg border border-border bg-card p-5 shadow-sm sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-xl font-semibold">
            {title}
          </h2>
          {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
        </div>
        {action}
      </div>
      <div className="mt-6">{children}</div>
    </section>
  );
}

function EmptyState({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-4 py-12 text-center">
      <Icon className="size-10 text-muted-foreground" aria-hidden />
      <h3 className="text-lg font-semibold">{title}</h3>
      <p className="max-w-sm text-sm text-muted-foreground">{text}</p>
      <Button asChild className="mt-2">
        <Link to={paths.products()}>Browse Products</Link>
      </Button>
    </div>
  );
}

export function OrdersView() {
  return (
    <ViewCard title="Order History" description="Your purchases and their status.">
      <EmptyState
        icon={ShoppingBag}
        title="No orders yet"
        text="When you buy something on Stackbay, your orders will appear here."
      />
    </ViewCard>
  );
}

export function SavedView() {
  return (
    <ViewCard title="Saved Products" description="Products you saved to come back to.">
      <EmptyState
        icon={Heart}
        title="No saved items yet"
        text="Save products you like while browsing and they will wait for you here."
      />
    </ViewCard>
  );
}

const comingSoon = (what: string) =>
  toast.info("Coming soon", { description: `${what} will be available in a future update.` });

export function WalletView() {
  return (
    <ViewCard title="Wallet" description="Your Stackbay balance and payment methods.">
      <div className="flex flex-col gap-4 rounded-lg bg-accent p-5 text-accent-foreground sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-3">
          <Wallet className="size-8" aria-hidden />
          <div>
            <p className="text-sm">Available balance</p>
            <p className="text-3xl font-bold tabular-nums" data-testid="wallet-balance">
              {formatUsd(0)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => comingSoon("Adding funds")}>
            <Plus aria-hidden /> Add Funds
          </Button>
          <Button variant="outline" onClick={() => comingSoon("Payment methods")}>
            <CreditCard aria-hidden /> Add Payment Method
          </Button>
        </div>
      </div>
      <h3 className="mt-8 font-semibold">Transactions</h3>
      <p className="mt-2 rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted-foreground">
        No transactions yet
      </p>
    </ViewCard>
  );
}
