import { cn } from "#web/lib/utils";

/**
 * Typography for a page's stored HTML (the look of the legal documents), applied to plain elements since
 * the markup comes from the editor: headings, paragraphs, lists, links, quotes, code, tables, figures.
 */
export const pageProse = cn(
  "space-y-4 leading-relaxed break-words text-foreground/90",
  "[&_h1]:pt-4 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h1]:text-foreground",
  "[&_h2]:pt-4 [&_h2]:text-2xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-foreground",
  "[&_h3]:pt-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-foreground",
  "[&_h4]:font-semibold [&_h4]:text-foreground [&_h5]:font-semibold [&_h6]:font-semibold",
  "[&_ul]:list-disc [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6 [&_ul]:space-y-2 [&_ul]:pl-6",
  "[&_li]:pl-1 [&_li]:marker:text-muted-foreground",
  "[&_dl]:space-y-3 [&_dt]:font-semibold [&_dt]:text-foreground [&_dd]:mt-1 [&_dd]:pl-4 [&_dd]:text-muted-foreground",
  "[&_a]:font-medium [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4",
  "[&_strong]:font-semibold [&_strong]:text-foreground [&_b]:font-semibold",
  "[&_blockquote]:border-l-4 [&_blockquote]:border-border [&_blockquote]:pl-4 [&_blockquote]:italic [&_blockquote]:text-muted-foreground",
  "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-sm",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-muted [&_pre]:p-4 [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_hr]:my-8 [&_hr]:border-border",
  "[&_img]:h-auto [&_img]:max-w-full [&_img]:rounded-lg",
  "[&_figcaption]:mt-2 [&_figcaption]:text-center [&_figcaption]:text-sm [&_figcaption]:text-muted-foreground",
  "[&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:border-collapse [&_table]:text-sm",
  "[&_td]:border [&_td]:border-border [&_td]:px-3 [&_td]:py-2 [&_th]:border [&_th]:border-border [&_th]:bg-muted/50 [&_th]:px-3 [&_th]:py-2 [&_th]:text-left",
);

/**
 * A content page's body. The HTML was sanitised by the server when it was saved (scripts, event
 * handlers, iframes and javascript: URLs are gone), so it is shown as it is stored.
 */
export function PageContent({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={cn(pageProse, className)}
      data-testid="page-content"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: stored page HTML is sanitised on the server at every save
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
