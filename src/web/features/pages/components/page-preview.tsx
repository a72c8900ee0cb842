import { useMemo } from "react";

/** A plain reading style for the preview frame, close to the public page's typography. */
const styles = `
  :root { color-scheme: light; }
  body { margin: 0; padding: 1.5rem; font: 16px/1.65 ui-sans-serif, system-ui, sans-serif; color: #1e293b; background: #fff; overflow-wrap: break-word; }
  h1, h2, h3, h4, h5, h6 { color: #0f172a; line-height: 1.3; margin: 1.5em 0 0.5em; }
  h1 { font-size: 1.875rem; } h2 { font-size: 1.5rem; } h3 { font-size: 1.125rem; }
  body > :first-child { margin-top: 0; }
  p, ul, ol, dl, blockquote, pre, table, figure { margin: 0 0 1em; }
  ul, ol { padding-left: 1.5rem; }
  a { color: #2563eb; text-decoration: underline; text-underline-offset: 4px; }
  blockquote { border-left: 4px solid #e2e8f0; padding-left: 1rem; font-style: italic; color: #475569; }
  code { background: #f1f5f9; border-radius: 4px; padding: 0.1em 0.35em; font-size: 0.875em; }
  pre { background: #f1f5f9; border-radius: 8px; padding: 1rem; overflow-x: auto; }
  pre code { background: none; padding: 0; }
  img { max-width: 100%; height: auto; border-radius: 8px; }
  table { border-collapse: collapse; font-size: 0.875rem; }
  th, td { border: 1px solid #e2e8f0; padding: 0.5rem 0.75rem; text-align: left; }
  th { background: #f8fafc; }
  hr { border: 0; border-top: 1px solid #e2e8f0; margin: 2rem 0; }
  figcaption { text-align: center; font-size: 0.875rem; color: #64748b; }
`;

/**
 * The draft as a standalone document. DOMParser builds an inert document (nothing runs or loads while
 * parsing); script elements are dropped only so the browser does not log each blocked one.
 */
function previewDocument(html: string): string {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  for (const script of parsed.querySelectorAll("script")) script.remove();
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${styles}</style></head><body>${parsed.body.innerHTML}</body></html>`;
}

/**
 * A live preview of unsaved page HTML. The draft has not been through the server's sanitiser yet, so it
 * is shown in an iframe with an empty `sandbox`: no scripts, no forms, no pop-ups and a unique origin, so
 * nothing in the draft can run, reach the admin's session or touch this page. That is simpler and safer
 * than sanitising again in the browser; what visitors get is what the server stores after sanitising.
 */
export function PagePreview({ html }: { html: string }) {
  const srcDoc = useMemo(() => previewDocument(html), [html]);
  return (
    <iframe
      title="Preview of the page content"
      sandbox=""
      srcDoc={srcDoc}
      className="h-[28rem] w-full rounded-md border border-input bg-white"
      data-testid="page-preview"
    />
  );
}
