import { Star, X } from "lucide-react";
import { useEffect, useId, useRef } from "react";
import { imageFileProblem, MAX_PRODUCT_IMAGES } from "#domain/product-admin";
import { Button } from "#web/components/ui/button";
import { cn } from "#web/lib/utils";

/** A picture of the product: one already uploaded (url), or a picked file waiting for the save. */
export type ImageItem = { key: string; url: string | null; file: File | null; preview: string };

export const imageItemFromUrl = (url: string): ImageItem => ({ key: url, url, file: null, preview: url });

let picked = 0;

/**
 * Pick pictures (checked for type and size first), see them, choose the main one, remove one. Files
 * are only uploaded when the form is saved; until then they show through object URLs.
 */
export function ImagePicker({
  items,
  mainKey,
  error,
  onChange,
  onError,
}: {
  items: ImageItem[];
  mainKey: string | null;
  error?: string;
  onChange: (items: ImageItem[], mainKey: string | null) => void;
  onError: (message: string | undefined) => void;
}) {
  const id = useId();

  // Object URLs hold the file in memory until revoked: free them when the picker goes away.
  const live = useRef(items);
  live.current = items;
  useEffect(
    () => () => {
      for (const item of live.current) if (item.file) URL.revokeObjectURL(item.preview);
    },
    [],
  );

  const add = (files: File[]) => {
    if (files.length === 0) return;
    const problem = files.map(imageFileProblem).find(Boolean);
    if (problem) return onError(problem);
    if (items.length + files.length > MAX_PRODUCT_IMAGES) {
      return onError(`A product can have at most ${MAX_PRODUCT_IMAGES} images`);
    }
    onError(undefined);
    const added = files.map((file) => ({
      key: `new-${++picked}`,
      url: null,
      file,
      preview: URL.createObjectURL(file),
    }));
    const next = [...items, ...added];
    onChange(next, mainKey ?? next[0]?.key ?? null);
  };

  const remove = (item: ImageItem) => {
    if (item.file) URL.revokeObjectURL(item.preview);
    const next = items.filter((i) => i.key !== item.key);
    onError(undefined);
    onChange(next, mainKey === item.key ? (next[0]?.key ?? null) : mainKey);
  };

  const full = items.length >= MAX_PRODUCT_IMAGES;
  return (
    <div className="grid gap-3">
      <div className="grid gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          Images
        </label>
        <input
          id={id}
          type="file"
          accept="image/*"
          multiple
          aria-describedby={`${id}-help`}
          aria-invalid={Boolean(error)}
          disabled={full}
          className="block w-full cursor-pointer rounded-md border border-input bg-card text-sm text-muted-foreground shadow-sm file:mr-3 file:cursor-pointer file:border-0 file:border-r file:border-input file:bg-secondary file:px-4 file:py-2.5 file:text-sm file:font-medium file:text-secondary-foreground hover:file:bg-secondary/80 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive"
          onChange={(event) => {
            add([...(event.target.files ?? [])]);
            // The same file can be picked again after being removed.
            event.target.value = "";
          }}
        />
        <p
          id={`${id}-help`}
          className={cn("text-xs", error ? "text-sm text-destructive" : "text-muted-foreground")}
          aria-live="polite"
        >
          {error ??
            (full
              ? `This product has the maximum of ${MAX_PRODUCT_IMAGES} images; remove one to add another.`
              : `Up to ${MAX_PRODUCT_IMAGES} images, each under 5MB. They are uploaded when you save.`)}
        </p>
      </div>
      {items.length > 0 && (
        <fieldset>
          <legend className="sr-only">Main image</legend>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="image-previews">
            {items.map((item, index) => {
              const main = item.key === mainKey;
              return (
                <li
                  key={item.key}
                  className={cn(
                    "overflow-hidden rounded-lg border bg-card",
                    main ? "border-primary ring-2 ring-primary" : "border-border",
                  )}
                >
                  <img
                    src={item.preview}
                    alt={`Preview ${index + 1}${main ? " (main)" : ""}`}
                    className="aspect-[4/3] w-full bg-muted object-cover"
                  />
                  <div className="flex items-center justify-between gap-2 p-2">
                    <label className="flex items-center gap-1.5 text-xs font-medium">
                      <input
                        type="radio"
                        name={`${id}-main`}
                        className="size-4 accent-primary"
                        checked={main}
                        onChange={() => onChange(items, item.key)}
                      />
                      {main && <Star className="size-3 fill-current text-primary" aria-hidden />}
                      Main<span className="sr-only"> image: image {index + 1}</span>
                    </label>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="size-8"
                      aria-label={`Remove image ${index + 1}`}
                      onClick={() => remove(item)}
                    >
                      <X aria-hidden />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}
    </div>
  );
}
