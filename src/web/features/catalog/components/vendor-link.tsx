import { Link } from "react-router";
import { paths } from "#domain/routes";
import { cn } from "#web/lib/utils";

/** "by Vendor": a link to the vendor's storefront when the product has one (Stackbay's own have none). */
export function VendorLink({
  vendor,
  vendorSlug,
  className,
}: {
  vendor: string | null;
  vendorSlug: string | null;
  className?: string;
}) {
  const name = vendor ?? "Unknown Vendor";
  return (
    <p className={cn("text-muted-foreground", className)}>
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
