import { z } from "zod";

export const emailField = z
  .string()
  .trim()
  .min(1, "Email is required")
  .max(254, "Please enter a valid email address")
  .pipe(z.email("Please enter a valid email address"));

export const newsletterSchema = z.object({ email: emailField.transform((e) => e.toLowerCase()) });
export type NewsletterInput = z.input<typeof newsletterSchema>;
