import { type ReactNode, useId } from "react";

/**
 * A short hint shown on hover and on keyboard focus, tied to its trigger with aria-describedby. Pure CSS,
 * so price cards do not pull a positioning library into every page.
 */
export function Tooltip({
  content,
  children,
}: {
  content: string;
  children: (describedBy: string) => ReactNode;
}) {
  const id = useId();
  return (
    <span className="group/tooltip relative inline-flex">
      {children(id)}
      <span
        id={id}
        role="tooltip"
        className="pointer-events-none invisible absolute bottom-full left-1/2 z-50 mb-2 -translate-x-1/2 whitespace-nowrap rounded-md bg-foreground px-3 py-1.5 text-xs font-normal text-background opacity-0 shadow-md transition-opacity group-focus-within/tooltip:visible group-focus-within/tooltip:opacity-100 group-hover/tooltip:visible group-hover/tooltip:opacity-100"
      >
        {content}
      </span>
    </span>
  );
}
