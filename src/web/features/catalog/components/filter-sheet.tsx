import { X } from "lucide-react";
import { Dialog } from "radix-ui";
import type { ComponentProps } from "react";
import { Button } from "#web/components/ui/button";
import { FacetPanel } from "#web/features/catalog/components/product-filters";

/**
 * The phone's filter sheet: the facet panel in a side dialog. Its own module so the products page loads
 * the dialog library only when a visitor opens it (`lazy` in routes/products.tsx).
 */
export default function FilterSheet({
  onClose,
  showLabel,
  ...panel
}: ComponentProps<typeof FacetPanel> & { onClose: () => void; showLabel: string }) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60" />
        <Dialog.Content className="fixed inset-y-0 right-0 z-50 flex w-[min(22rem,100%)] flex-col border-l border-border bg-background text-foreground shadow-lg">
          <div className="flex items-center justify-between border-b border-border p-4">
            <Dialog.Title className="text-lg font-semibold">Filters</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close filters">
                <X aria-hidden />
              </Button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            Narrow the products by price, rating, vendor and pricing.
          </Dialog.Description>
          <div className="flex-1 overflow-y-auto p-4">
            <FacetPanel {...panel} />
          </div>
          <div className="border-t border-border p-4">
            <Dialog.Close asChild>
              <Button className="w-full">{showLabel}</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
