import type { ComponentProps } from "react";
import { Slot } from "#web/components/ui/slot";
import { cn } from "#web/lib/utils";

/**
 * The bordered surface every panel, form and tile sits on. `asChild` lends the look to a semantic element
 * (section, li, fieldset, search…) so landmarks and lists keep their meaning; `flat` drops the shadow for
 * cards that sit inside an already raised area.
 */
export function Card({
  className,
  asChild = false,
  flat = false,
  ...props
}: ComponentProps<"div"> & { asChild?: boolean; flat?: boolean }) {
  const Component = asChild ? Slot : "div";
  return (
    <Component
      data-slot="card"
      className={cn("rounded-lg border border-border bg-card", !flat && "shadow-sm", className)}
      {...props}
    />
  );
}
