import { type ComponentProps, type ReactNode, useLayoutEffect, useRef, useState } from "react";
import { cn } from "#web/lib/utils";

/**
 * Names each body cell after its column (`data-label`, from the header row; a cell spanning several
 * columns gets none), for the stacked layout's labels.
 */
function labelCells(table: HTMLTableElement) {
  const names = [...(table.tHead?.rows[0]?.cells ?? [])].flatMap((th) =>
    Array.from({ length: th.colSpan }, () => th.textContent?.trim() ?? ""),
  );
  for (const body of table.tBodies)
    for (const row of body.rows) {
      let column = 0;
      for (const cell of row.cells) {
        const label = cell.colSpan > 1 ? "" : (names[column] ?? "");
        if (cell.dataset.label !== label) cell.dataset.label = label;
        column += cell.colSpan;
      }
    }
}

/**
 * Narrower than this (a phone, a tablet held upright), a frame too narrow for its table stacks it as
 * cards; wider, the table stays a table and scrolls sideways inside its frame. A desktop reads a row
 * on one line: a 1,366 px screen once showed admin orders as 320 px cards, two or three a screen.
 */
export const STACK_BELOW_PX = 768;

/**
 * The list tables of the back office. On a narrow screen (a frame under `STACK_BELOW_PX`) where the
 * frame is narrower than its table's min-width, the table is stacked as cards (`data-stacked`, styled
 * in styles.css) instead of scrolling sideways; everywhere else it is an ordinary table, which scrolls
 * inside its frame when it is wider. The min-width goes on `Table`.
 */
export function TableFrame({ className, ...props }: ComponentProps<"section"> & { "aria-label": string }) {
  const frame = useRef<HTMLElement>(null);
  const [stacked, setStacked] = useState(false);
  useLayoutEffect(() => {
    const section = frame.current;
    const table = section?.querySelector<HTMLTableElement>('[data-slot="table"]');
    if (!section || !table) return;
    // The width the table needs, measured while it is laid out as a table: its min-width or its
    // content, whichever is wider. Stacked, it keeps the width that did not fit until the frame has it.
    let needs = 0;
    const measure = () => {
      if (!section.hasAttribute("data-stacked")) needs = table.offsetWidth;
      setStacked(section.clientWidth < Math.min(needs, STACK_BELOW_PX));
    };
    labelCells(table);
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(section);
    const changed = new MutationObserver(() => labelCells(table));
    changed.observe(table, { childList: true, subtree: true, characterData: true });
    return () => {
      resized.disconnect();
      changed.disconnect();
    };
  }, []);
  return (
    <section
      ref={frame}
      data-slot="table-frame"
      data-stacked={stacked || undefined}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      // w-0 with min-w-full: the frame fills its container but never widens it (a grid column or flex
      // item sized by content would otherwise grow to the table's min-width, and nothing would stack).
      className={cn(
        "relative w-0 min-w-full overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring",
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
