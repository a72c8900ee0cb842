import { Link } from "react-router";
import { paths } from "#domain/routes";
import { cn } from "#web/lib/utils";

/**
 * "by Vendor": a link to the vendor's storefront when the product has one (Stackbay's own have none).
 * `truncate` keeps it to one line, cut with an ellipsis, the full text in its title.
 */
export function VendorLink({
  vendor,
  vendorSlug,
  className,
  truncate = false,
}: {
  vendor: string | null;
  vendorSlug: string | null;
  className?: string;
  truncate?: boolean;
}) {
  const name = vendor ?? "Unknown Vendor";
  return (
    <p
      className={cn("text-muted-foreground", truncate && "min-w-0 truncate", className)}
      title={truncate ? `by ${name}` : undefined}
    >
      by{" "}
      {vendorSlug ? (
        <Link to={paths.vendor(vendorSlug)} className="font-medium text-foreground/80 hover:underline">
          {name}
        </Link>
      ) : (
        name
      )}
    </p>
  );
}
