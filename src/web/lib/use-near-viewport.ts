import { type RefObject, useEffect, useState } from "react";

/**
 * False until the element comes within `margin` of the viewport (scrolled to, or focused by the
 * keyboard, which scrolls it there), then true for good. For parts far down a page whose code no visit
 * needs until the person gets there (the footer's newsletter form): loaded after the first paint anyway,
 * their code would be fetched and run while the page is still loading on every visit.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = "200px"): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver !== "function") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
