import type { ReactNode } from "react";

/**
 * A page's title band. `compact` is for pages whose content should start high (the product grid): one
 * short band, the subtitle beside the title where it fits.
 */
export function PageHeader({
  title,
  subtitle,
  children,
  compact = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  compact?: boolean;
}) {
  if (compact) {
    return (
      <div className="border-b border-border bg-gradient-to-b from-accent/60 to-background">
        <div className="mx-auto flex max-w-7xl flex-wrap items-baseline gap-x-4 gap-y-1 px-4 py-3 sm:px-6">
          <title>{`${title} | Stackbay`}</title>
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          {subtitle && <p className="text-sm text-muted-foreground">{subtitle}</p>}
          {children}
        </div>
      </div>
    );
  }
  return (
    <div className="border-b border-border bg-gradient-to-b from-accent/60 to-background">
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
        <title>{`${title} | Stackbay`}</title>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        {subtitle && <p className="mt-3 max-w-2xl text-muted-foreground">{subtitle}</p>}
        {children}
      </div>
    </div>
  );
}
