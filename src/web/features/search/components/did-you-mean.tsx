import { Link } from "react-router";
import { paths } from "#domain/routes";
import type { ProductFilters } from "#web/features/catalog/api/get-products";

/** "Did you mean …?" under the result count, when the server found a nearer spelling of the search. */
export function DidYouMean({ suggestion, filters }: { suggestion?: string; filters: ProductFilters }) {
  if (!suggestion) return null;
  return (
    <p className="w-full text-sm" data-testid="did-you-mean">
      Did you mean{" "}
      <Link
        to={paths.products({ ...filters, search: suggestion })}
        replace
        className="font-medium text-primary underline underline-offset-4 hover:no-underline"
      >
        {suggestion}
      </Link>
      ?
    </p>
  );
}
