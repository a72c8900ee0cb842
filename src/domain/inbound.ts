import { z } from "zod";
import { emailField } from "#domain/newsletter";
import { pageNumber } from "#domain/paging";

export const contactSubjects = [
  { value: "general", label: "General inquiry" },
  { value: "support", label: "Technical support" },
  { value: "urgent", label: "Urgent technical issue (a service is down)" },
  { value: "partnership", label: "Partnership" },
  { value: "bug", label: "Report a bug" },
  { value: "billing", label: "Billing" },
] as const;

const subjectValues = contactSubjects.map((s) => s.value) as [string, ...string[]];

/** A field humans never see; bots that fill every input give themselves away. */
export const honeypot = z.string().max(200).optional().default("");

export const contactSchema = z.object({
  name: z.string().trim().min(2, "Name must be at least 2 characters").max(100, "Name is too long"),
  email: emailField,
  subject: z.enum(subjectValues, { error: "Please select a subject" }),
  message: z
    .string()
    .trim()
    .min(10, "Message must be at least 10 characters")
    .max(5000, "Message must be at most 5000 characters"),
  website: honeypot,
});
export type ContactInput = z.input<typeof contactSchema>;

export const productTypes = [
  { value: "saas", label: "SaaS Solutions" },
  { value: "apis", label: "APIs & Developer Tools" },
  { value: "software", label: "Software Licenses" },
  { value: "hardware", label: "Hardware" },
  { value: "services", label: "Digital Services" },
] as const;

export const companySizes = [
  { value: "startup", label: "Startup (1-10 employees)" },
  { value: "smb", label: "SMB (11-100 employees)" },
  { value: "enterprise", label: "Enterprise (100+ employees)" },
] as const;

const countryNames = [
  "United States",
  "Canada",
  "United Kingdom",
  "Germany",
  "France",
  "Australia",
  "Japan",
  "South Korea",
  "Singapore",
  "Netherlands",
  "Sweden",
  "Switzerland",
  "Ireland",
  "Israel",
  "India",
  "Brazil",
  "Mexico",
  "Other",
];
/** The spec's country list; the stored value is the lowercase name with spaces turned into hyphens. */
export const partnerCountries = countryNames.map((label) => ({
  label,
  value: label.toLowerCase().replaceAll(" ", "-"),
}));

const valuesOf = (options: readonly { value: string }[]) =>
  options.map((o) => o.value) as [string, ...string[]];

export const partnerApplicationSchema = z.object({
  companyName: z
    .string()
    .trim()
    .min(2, "Company name must be at least 2 characters")
    .max(120, "Company name is too long"),
  contactPerson: z
    .string()
    .trim()
    .min(2, "Contact person name must be at least 2 characters")
    .max(100, "Contact person name is too long"),
  email: emailField,
  productType: z.enum(valuesOf(productTypes), { error: "Please select a product type" }),
  country: z.enum(valuesOf(partnerCountries), { error: "Please select your country" }),
  website: z
    .string()
    .trim()
    .max(300, "Please enter a valid website URL")
    .pipe(z.url({ protocol: /^https?$/, error: "Please enter a valid website URL" })),
  companySize: z.enum(valuesOf(companySizes), { error: "Please select company size" }),
  message: z
    .string()
    .trim()
    .min(20, "Message must be at least 20 characters")
    .max(5000, "Message must be at most 5000 characters"),
  nickname: honeypot,
});
export type PartnerApplicationInput = z.input<typeof partnerApplicationSchema>;

export const applicationStatuses = [
  { value: "new", label: "New" },
  { value: "reviewing", label: "Reviewing" },
  { value: "approved", label: "Approved" },
  { value: "rejected", label: "Rejected" },
] as const;
export type ApplicationStatus = (typeof applicationStatuses)[number]["value"];

export const applicationStatusSchema = z.object({
  status: z.enum(valuesOf(applicationStatuses) as [ApplicationStatus, ...ApplicationStatus[]], {
    error: "Status must be new, reviewing, approved or rejected",
  }),
});

export const INBOX_PAGE_SIZE = 25;

/** One page of an admin inbox list, newest first; `status` filters applications. */
export const inboxQuery = z.object({
  page: pageNumber,
  status: applicationStatusSchema.shape.status.optional(),
});
export type InboxQuery = z.input<typeof inboxQuery>;

/** What the admin inbox lists (dates as ISO strings). */
export const inboxMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type InboxMessage = z.infer<typeof inboxMessageSchema>;

export const inboxApplicationSchema = z.object({
  id: z.string(),
  companyName: z.string(),
  contactPerson: z.string(),
  email: z.string(),
  productType: z.string(),
  country: z.string(),
  website: z.string(),
  companySize: z.string(),
  message: z.string(),
  status: z.enum(valuesOf(applicationStatuses) as [ApplicationStatus, ...ApplicationStatus[]]),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type InboxApplication = z.infer<typeof inboxApplicationSchema>;

export const inboxSubscriberSchema = z.object({
  email: z.string(),
  status: z.enum(["confirmed", "pending", "unsubscribed"]),
  createdAt: z.string(),
  confirmedAt: z.string().nullable(),
});
export type InboxSubscriber = z.infer<typeof inboxSubscriberSchema>;
