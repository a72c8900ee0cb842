import { Check, ShoppingCart, X } from "lucide-react";
import type { ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { showsDiscountBadge } from "#domain/catalog";
import type { CompareAnswer, CompareProduct } from "#domain/compare";
import { valuesDiffer } from "#domain/compare";
import { paths } from "#domain/routes";
import { Button } from "#web/components/ui/button";
import {
  Table,
  TableBody,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from "#web/components/ui/table";
import { useCategoryName } from "#web/features/catalog/api/get-categories";
import { addProductToCart } from "#web/features/catalog/components/product-card";
import { ProductImage } from "#web/features/catalog/components/product-image";
import { StarRating } from "#web/features/catalog/components/star-rating";
import { VendorLink } from "#web/features/catalog/components/vendor-link";
import { Price } from "#web/features/currency/components/price";
import { cn } from "#web/lib/utils";

/** A row of the comparison: what it shows per product and what is compared to mark it as differing. */
type Row = {
  key: string;
  label: string;
  cell: (product: CompareProduct, index: number) => ReactNode;
  compared: (string | number | null)[];
};

/** The width a comparison needs as a table; narrower than that, the frame stacks it (see `TableFrame`). */
const minWidths: Record<number, string> = {
  1: "min-w-[24rem]",
  2: "min-w-[36rem]",
  3: "min-w-[48rem]",
  4: "min-w-[60rem]",
};

function Missing() {
  return (
    <span>
      <span aria-hidden>—</span>
      <span className="sr-only">Not listed</span>
    </span>
  );
}

function CategoryName({ slug }: { slug: string }) {
  return <span>{useCategoryName(slug)}</span>;
}

function rowsOf(answer: CompareAnswer): Row[] {
  const { products } = answer;
  return [
    {
      key: "price",
      label: "Price",
      cell: (p) => (
        <Price
          amount={p.price}
          originalAmount={p.originalPrice}
          productName={p.name}
          unit={p.pricingUnit}
          payAsYouGo={p.payAsYouGo}
        />
      ),
      compared: products.map((p) =>
        p.payAsYouGo ? `${p.payAsYouGo.unitPrice} ${p.payAsYouGo.unit}` : `${p.price} ${p.pricingUnit ?? ""}`,
      ),
    },
    {
      key: "rating",
      label: "Rating",
      cell: (p) =>
        p.rating === null ? (
          <span className="text-muted-foreground">No reviews yet</span>
        ) : (
          <StarRating rating={p.rating} reviewsCount={p.reviewsCount} />
        ),
      compared: products.map((p) => p.rating),
    },
    {
      key: "vendor",
      label: "Vendor",
      cell: (p) => <VendorLink vendor={p.vendor} vendorSlug={p.vendorSlug} />,
      compared: products.map((p) => p.vendor),
    },
    {
      key: "category",
      label: "Category",
      cell: (p) => <CategoryName slug={p.category} />,
      compared: products.map((p) => p.category),
    },
    {
      key: "discount",
      label: "Discount",
      cell: (p) => (showsDiscountBadge(p) ? <span>{p.discountLabel}</span> : <Missing />),
      compared: products.map((p) => (showsDiscountBadge(p) ? p.discountLabel : null)),
    },
    ...answer.specifications.map(
      (spec): Row => ({
        key: `spec:${spec.key}`,
        label: spec.key,
        cell: (_p, index) => <span>{spec.values[index] ?? <Missing />}</span>,
        compared: spec.values,
      }),
    ),
    {
      key: "features",
      label: "Features",
      cell: (p) =>
        p.features.length === 0 ? (
          <Missing />
        ) : (
          <ul className="space-y-1">
            {p.features.map((feature) => (
              <li key={feature} className="flex gap-2">
                <Check
                  className="mt-0.5 size-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                  aria-hidden
                />
                <span>{feature}</span>
              </li>
            ))}
          </ul>
        ),
      compared: products.map((p) => (p.features.length ? [...p.features].sort().join("\n") : null)),
    },
  ];
}

/**
 * The products side by side, one column each and one row per attribute, specifications aligned by key.
 * Rows whose values differ are tinted and say "Differs" (for every reader, not by colour alone); with
 * `onlyDifferences` the others are left out. Too narrow for the table, the frame stacks it: one block
 * per attribute with each product's name before its value, so a phone never scrolls sideways.
 */
export function CompareTable({
  answer,
  onlyDifferences,
  onRemove,
}: {
  answer: CompareAnswer;
  onlyDifferences: boolean;
  onRemove: (id: string) => void;
}) {
  const navigate = useNavigate();
  const all = rowsOf(answer).map((row) => ({ ...row, differs: valuesDiffer(row.compared) }));
  const rows = onlyDifferences ? all.filter((row) => row.differs) : all;
  const { products } = answer;
  return (
    <div className="space-y-3">
      {onlyDifferences && rows.length === 0 && (
        <p className="rounded-lg border border-border p-4 text-sm text-muted-foreground" role="status">
          These products are alike in every row compared here.
        </p>
      )}
      <TableFrame aria-label="Product comparison">
        <Table className={cn("table-fixed", minWidths[products.length])} data-testid="compare-table">
          <TableHeader>
            <TableHead className="w-36 align-top">
              <span className="sr-only">Product</span>
            </TableHead>
            {products.map((p) => (
              <TableHead key={p.id} className="align-top text-foreground">
                <div className="space-y-2">
                  <Link to={paths.product(p.id)} tabIndex={-1} aria-hidden className="block">
                    <ProductImage src={p.imageUrl} alt="" className="rounded-md border border-border" />
                  </Link>
                  <Link
                    to={paths.product(p.id)}
                    className="block font-semibold [overflow-wrap:anywhere] hover:underline"
                    data-testid="compare-product-name"
                  >
                    {p.name}
                  </Link>
                </div>
              </TableHead>
            ))}
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow
                key={row.key}
                data-differs={row.differs || undefined}
                data-testid="compare-row"
                className={cn(row.differs && "bg-amber-50 dark:bg-amber-950/40")}
              >
                <TableHead
                  scope="row"
                  className={cn(
                    "align-top text-muted-foreground [overflow-wrap:anywhere] [[data-stacked]_&]:block [[data-stacked]_&]:pb-1 [[data-stacked]_&]:text-foreground",
                    row.differs && "border-l-4 border-amber-500",
                  )}
                >
                  <span data-testid="compare-row-label">{row.label}</span>
                  {row.differs && (
                    <span className="mt-0.5 block text-xs font-semibold text-amber-800 dark:text-amber-300">
                      Differs
                    </span>
                  )}
                </TableHead>
                {products.map((p, index) => (
                  <TableCell key={p.id} className="align-top [overflow-wrap:anywhere]">
                    <div>{row.cell(p, index)}</div>
                  </TableCell>
                ))}
              </TableRow>
            ))}
            <TableRow>
              <TableHead scope="row" className="align-top [[data-stacked]_&]:block [[data-stacked]_&]:pb-1">
                <span className="sr-only">Actions</span>
              </TableHead>
              {products.map((p) => (
                <TableCell key={p.id} className="align-top">
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      onClick={() => addProductToCart(p, () => navigate(paths.cart()))}
                      aria-label={`Add ${p.name} to cart`}
                    >
                      <ShoppingCart aria-hidden /> Add to cart
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onRemove(p.id)}
                      aria-label={`Remove ${p.name} from the comparison`}
                    >
                      <X aria-hidden /> Remove
                    </Button>
                  </div>
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </TableFrame>
    </div>
  );
}
