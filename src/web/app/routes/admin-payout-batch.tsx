import { ArrowLeft } from "lucide-react";
import { Link, useParams } from "react-router";
import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { RequireRole } from "#web/features/auth/components/guards";
import { usePayoutBatch } from "#web/features/payouts/api/get-payout-batches";
import { PayoutBatchPayouts } from "#web/features/payouts/components/payout-batch-detail";

export function Component() {
  return (
    <RequireRole allow="superAdmin">
      <PayoutBatchScreen />
    </RequireRole>
  );
}

function PayoutBatchScreen() {
  const { id = "" } = useParams();
  const batch = usePayoutBatch(id);
  return (
    <>
      <PageHeader title={`Payout batch ${id.slice(0, 8).toUpperCase()}`}>
        <Link
          to={paths.admin.payouts()}
          className="mt-4 inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden /> All payouts
        </Link>
      </PageHeader>
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        {batch.isPending ? (
          <Spinner label="Loading the batch" />
        ) : batch.isError ? (
          <LoadError what="payout batch" error={batch.error} onRetry={() => batch.refetch()} />
        ) : (
          <PayoutBatchPayouts batch={batch.data} />
        )}
      </div>
    </>
  );
}
