import { Package } from "lucide-react";
import { cn } from "#web/lib/utils";

/** A product picture at 4:3, or a neutral placeholder when the product has none. */
export function ProductImage({
  src,
  alt,
  className,
  eager = false,
}: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  eager?: boolean;
}) {
  if (!src) {
    return (
      <div
        className={cn(
          "flex aspect-[4/3] items-center justify-center bg-muted text-muted-foreground",
          className,
        )}
        role="img"
        aria-label={`${alt} (no picture)`}
      >
        <Package className="size-10" aria-hidden />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={800}
      height={600}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      className={cn("aspect-[4/3] w-full bg-muted object-cover", className)}
    />
  );
}
