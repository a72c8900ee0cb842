import { useEffect, useState } from "react";

/**
 * False until the element given to the returned ref comes within `margin` of the viewport (scrolled to,
 * or focused by the keyboard, which scrolls it there), then true for good. For parts far down a page
 * whose code no visit needs until the person gets there (the footer's newsletter form, a product's
 * reviews): loaded after the first paint anyway, their code would be fetched and run while the page is
 * still loading on every visit. The ref is a callback, so an element drawn later (after a loading
 * placeholder) is watched from the moment it exists.
 */
export function useNearViewport(margin = "200px"): [boolean, (element: Element | null) => void] {
  const [near, setNear] = useState(false);
  const [element, setElement] = useState<Element | null>(null);
  useEffect(() => {
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
  }, [element, margin, near]);
  return [near, setElement];
}
