/** Spec rule: lowercase, drop all but letters, digits, spaces and hyphens, spaces to hyphens, collapse hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-");
}

export const SLUG_PATTERN = /^[a-z0-9-]+$/;
