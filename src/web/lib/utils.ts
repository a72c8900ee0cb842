import { type ClassValue, clsx } from "clsx";
import { mergeClasses } from "#web/lib/class-merge";

/** Joins class names; of two Tailwind classes that set the same thing, the later one wins (`mergeClasses`). */
export function cn(...inputs: ClassValue[]) {
  return mergeClasses(clsx(inputs));
}
