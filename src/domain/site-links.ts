import { z } from "zod";

/**
 * The social accounts the footer may link to, each set by its own variable (`src/server/env.ts`). A
 * network whose variable is unset is not shown: the footer links only to accounts the operator runs.
 */
export const socialNetworks = [
  { env: "SOCIAL_LINKEDIN_URL", label: "LinkedIn" },
  { env: "SOCIAL_X_URL", label: "X" },
  { env: "SOCIAL_GITHUB_URL", label: "GitHub" },
  { env: "SOCIAL_YOUTUBE_URL", label: "YouTube" },
] as const;
export type SocialVariable = (typeof socialNetworks)[number]["env"];

/** `GET /api/site-links`: the operator's social accounts, in the footer's order; empty when none is set. */
export const siteLinksSchema = z.object({
  social: z.array(z.object({ label: z.string(), url: z.string() })),
});
export type SiteLinks = z.infer<typeof siteLinksSchema>;

/** The configured accounts only, in the order of `socialNetworks`. */
export function siteLinksOf(settings: Partial<Record<SocialVariable, string>>): SiteLinks {
  return {
    social: socialNetworks.flatMap(({ env, label }) => {
      const url = settings[env];
      return url ? [{ label, url }] : [];
    }),
  };
}
