import { Search } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { MAX_SEARCH_LENGTH } from "#domain/catalog";
import { paths } from "#domain/routes";
import { SUGGEST_MIN_LENGTH, useSuggestions } from "#web/features/search/api/get-suggestions";
import { useDebounced } from "#web/lib/use-debounced";
import { cn } from "#web/lib/utils";

const DEBOUNCE_MS = 150;

type Option = {
  key: string;
  group: "Products" | "Vendors" | "Categories";
  label: string;
  detail?: string;
  to: string;
};

/**
 * The header's search box (ARIA combobox with a listbox popup): suggestions appear while typing;
 * ArrowUp/ArrowDown move through them, Enter opens the highlighted one or searches all products for
 * the text, Escape closes the list (and, pressed again, leaves the box through `onDismiss`).
 */
export function HeaderSearch({
  id,
  autoFocus = false,
  onDismiss,
  className,
}: {
  id: string;
  autoFocus?: boolean;
  onDismiss?: () => void;
  className?: string;
}) {
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The box was just opened by its button on a phone: the keyboard lands in it.
  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);
  const typed = useDebounced(text, DEBOUNCE_MS);
  const suggestions = useSuggestions(typed);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page closes the list
  useEffect(() => {
    setOpen(false);
    setActive(-1);
  }, [pathname]);

  const data = suggestions.data;
  const options: Option[] =
    text.trim().length < SUGGEST_MIN_LENGTH || !data
      ? []
      : [
          ...data.products.map((p) => ({
            key: `p-${p.id}`,
            group: "Products" as const,
            label: p.name,
            detail: p.vendor ?? undefined,
            to: paths.product(p.id),
          })),
          ...data.vendors.map((v) => ({
            key: `v-${v.slug}`,
            group: "Vendors" as const,
            label: v.name,
            to: paths.vendor(v.slug),
          })),
          ...data.categories.map((c) => ({
            key: `c-${c.slug}`,
            group: "Categories" as const,
            label: c.name,
            to: paths.products({ category: c.slug }),
          })),
        ];
  const showList = open && text.trim().length >= SUGGEST_MIN_LENGTH;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const go = (to: string) => {
    setOpen(false);
    setActive(-1);
    setText("");
    inputRef.current?.blur();
    onDismiss?.();
    navigate(to);
  };

  const submit = () => {
    const chosen = active >= 0 ? options[active] : undefined;
    if (chosen) return go(chosen.to);
    const search = text.trim();
    if (search) go(paths.products({ search }));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      // -1 is the box itself: moving past either end comes back to what was typed.
      setActive((current) => ((current + 1 + step + options.length + 1) % (options.length + 1)) - 1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      submit();
    } else if (event.key === "Escape") {
      if (showList) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else {
        onDismiss?.();
      }
    }
  };

  let status: string | null = null;
  if (showList) {
    if (suggestions.isError) status = "Suggestions are unavailable. Press Enter to search.";
    else if (options.length === 0 && (suggestions.isFetching || typed !== text)) status = "Searching...";
    else if (options.length === 0) status = "No suggestions. Press Enter to search all products.";
  }

  return (
    <search className={cn("relative block min-w-0", className)} data-testid="header-search">
      <Search
        className="pointer-events-none absolute top-2.5 left-3 size-4 text-muted-foreground"
        aria-hidden
      />
      <label htmlFor={id} className="sr-only">
        Search products, vendors and categories
      </label>
      <input
        ref={inputRef}
        id={id}
        type="search"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        enterKeyHint="search"
        maxLength={MAX_SEARCH_LENGTH}
        placeholder="Search products..."
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="flex h-9 w-full min-w-0 rounded-md border border-input bg-card py-2 pr-3 pl-9 text-sm shadow-sm placeholder:text-muted-foreground"
      />
      <div
        className={cn(
          "absolute top-full right-0 z-50 mt-1 max-h-[70vh] w-full md:w-[28rem] md:max-w-[calc(100vw-2rem)] overflow-y-auto rounded-md border border-border bg-popover text-popover-foreground shadow-lg",
          !showList && "hidden",
        )}
      >
        <div id={listId} role="listbox" aria-label="Suggestions" className="py-1">
          {options.map((option, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard stays in the combobox, which moves through the options
            <div
              key={option.key}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === active}
              data-testid="search-suggestion"
              // Keep the focus in the box, so the list does not close before the click lands.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(option.to)}
              onMouseMove={() => setActive(index)}
              className={cn(
                "flex cursor-pointer items-baseline gap-2 px-3 py-2 text-sm",
                index === active && "bg-accent text-accent-foreground",
              )}
            >
              <span className="min-w-0 truncate font-medium">{option.label}</span>
              {option.detail && (
                <span className="hidden min-w-0 shrink-[3] truncate text-xs text-muted-foreground sm:inline">
                  {option.detail}
                </span>
              )}
              <span className="ml-auto shrink-0 text-xs text-muted-foreground">{option.group}</span>
            </div>
          ))}
        </div>
        {status && (
          <p className="px-3 py-2 text-sm text-muted-foreground" role="status">
            {status}
          </p>
        )}
      </div>
    </search>
  );
}
