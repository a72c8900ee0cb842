import { Package } from "lucide-react";
import { cn } from "#web/lib/utils";

/**
 * A product picture, or a neutral placeholder when the product has none: 4:3 on product pages, a wider
 * 2:1 crop on cards so a grid shows more products at once. Dimmed a little in dark mode, where
 * full-brightness artwork glares against the page.
 */
export function ProductImage({
  src,
  alt,
  className,
  eager = false,
  shape = "photo",
}: {
  src: string | null | undefined;
  alt: string;
  className?: string;
  eager?: boolean;
  shape?: "photo" | "banner";
}) {
  const aspect = shape === "banner" ? "aspect-[2/1]" : "aspect-[4/3]";
  if (!src) {
    return (
      <div
        className={cn("flex items-center justify-center bg-muted text-muted-foreground", aspect, className)}
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
      // Eager pictures are the page's largest paint (the product's picture, the first cards): ahead of
      // the icons and below-the-fold images in the browser's queue.
      fetchPriority={eager ? "high" : "auto"}
      decoding="async"
      className={cn("w-full bg-muted object-cover dark:brightness-[0.85]", aspect, className)}
    />
  );
}
