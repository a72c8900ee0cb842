import type { ReactNode } from "react";

/**
 * A wide table that scrolls sideways inside its own keyboard-reachable region, so phones never scroll
 * the page; `minWidth` is a Tailwind min-width class such as "min-w-[56rem]".
 */
export function ScrollTable({
  label,
  columns,
  minWidth,
  testId,
  children,
}: {
  label: string;
  columns: readonly string[];
  minWidth: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-border focus-visible:outline-2 focus-visible:outline-ring"
    >
      <table className={`w-full ${minWidth} text-left text-sm`} data-testid={testId}>
        <thead className="bg-muted/50 text-muted-foreground">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-3 font-medium">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </section>
  );
}
