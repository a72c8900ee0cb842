import type { ComponentProps, ReactNode } from "react";
import { cn } from "#web/lib/utils";

/**
 * The list tables of the back office. A wide table scrolls sideways inside its own keyboard-reachable
 * region (`TableFrame`), so phones never scroll the page; the min-width goes on `Table`.
 */
export function TableFrame({ className, ...props }: ComponentProps<"section"> & { "aria-label": string }) {
  return (
    <section
      data-slot="table-frame"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={cn(
        "relative overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring",
        className,
      )}
      {...props}
    />
  );
}

export function Table({ className, ...props }: ComponentProps<"table">) {
  return <table data-slot="table" className={cn("w-full text-left text-sm", className)} {...props} />;
}

/** The header with its one row: children are the `TableHead` cells. */
export function TableHeader({ className, children, ...props }: ComponentProps<"thead">) {
  return (
    <thead data-slot="table-header" className={cn("bg-muted/50 text-muted-foreground", className)} {...props}>
      <tr>{children}</tr>
    </thead>
  );
}

export function TableBody(props: ComponentProps<"tbody">) {
  return <tbody data-slot="table-body" {...props} />;
}

export function TableRow({ className, ...props }: ComponentProps<"tr">) {
  return <tr data-slot="table-row" className={cn("border-t border-border", className)} {...props} />;
}

/** A header cell: a column's by default, a row's with scope="row". */
export function TableHead({ className, scope = "col", ...props }: ComponentProps<"th">) {
  return (
    <th data-slot="table-head" scope={scope} className={cn("px-4 py-3 font-medium", className)} {...props} />
  );
}

export function TableCell({ className, ...props }: ComponentProps<"td">) {
  return <td data-slot="table-cell" className={cn("px-4 py-3", className)} {...props} />;
}

/** The common case: a labelled scrolling table whose header is a list of column names. */
export function ScrollTable({
  label,
  columns,
  minWidth,
  testId,
  children,
}: {
  label: string;
  columns: readonly string[];
  /** A Tailwind min-width class such as "min-w-[56rem]". */
  minWidth: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <TableFrame aria-label={label}>
      <Table className={minWidth} data-testid={testId}>
        <TableHeader>
          {columns.map((column) => (
            <TableHead key={column}>{column}</TableHead>
          ))}
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </TableFrame>
  );
}
