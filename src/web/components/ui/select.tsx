import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "#web/lib/utils";

/** A native select styled like the inputs: keyboard, screen readers and phones get the platform control. */
export function NativeSelect({ className, children, ...props }: ComponentProps<"select">) {
  return (
    <div className={cn("relative", className)}>
      <select
        data-slot="select"
        className="h-10 w-full appearance-none rounded-md border border-input bg-card py-2 pr-9 pl-3 text-sm shadow-sm aria-invalid:border-destructive"
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-3 right-3 size-4 text-muted-foreground"
        aria-hidden
      />
    </div>
  );
}
