import type { ReactNode } from "react";
import { DocumentLayout, type DocumentSection } from "#web/components/layout/document-layout";
import { PageHeader } from "#web/components/layout/page-header";

export type LegalSection = DocumentSection;

/** A legal document (terms, privacy): its effective date under the title, and numbered sections. */
export function LegalDocument({
  title,
  effectiveDate,
  effectiveDateTime,
  intro,
  sections,
}: {
  title: string;
  /** The date as shown to readers. */
  effectiveDate: string;
  /** The same date in ISO form (YYYY-MM-DD) for the `<time>` element. */
  effectiveDateTime: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  return (
    <DocumentLayout
      numbered
      intro={intro}
      sections={sections}
      header={
        <PageHeader title={title}>
          <p className="mt-3 text-sm text-muted-foreground" data-testid="effective-date">
            Effective date: <time dateTime={effectiveDateTime}>{effectiveDate}</time>
          </p>
        </PageHeader>
      }
    />
  );
}
