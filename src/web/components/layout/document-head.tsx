import { useLayoutEffect } from "react";

/**
 * The page's title, in the tab, the history and what the route announcer reads after a navigation
 * (root-layout). Set from the page that renders it; the outermost one rendered wins.
 */
export function DocumentTitle({ children }: { children: string }) {
  useLayoutEffect(() => {
    document.title = children;
  }, [children]);
  return null;
}

/**
 * A `<meta>` in the head while the page shows (the server writes the same tags into the HTML for
 * clients that run no script); the value it replaced comes back when the page goes.
 */
export function HeadMeta({
  name,
  property,
  content,
}: { content: string } & ({ name: string; property?: never } | { property: string; name?: never })) {
  useLayoutEffect(() => {
    const attribute = name ? "name" : "property";
    const key = (name ?? property) as string;
    let tag = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${CSS.escape(key)}"]`);
    const previous = tag?.content;
    if (!tag) {
      tag = document.createElement("meta");
      tag.setAttribute(attribute, key);
      document.head.append(tag);
    }
    tag.content = content;
    const own = tag;
    return () => {
      if (previous === undefined) own.remove();
      else own.content = previous;
    };
  }, [name, property, content]);
  return null;
}
