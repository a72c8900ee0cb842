import { afterAll, describe, expect, test } from "vitest";
import { createTestApp } from "#server/test/app";

const apps: Awaited<ReturnType<typeof createTestApp>>[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));

async function siteLinks(env?: Record<string, string>) {
  const t = await createTestApp(env ? { env } : {});
  apps.push(t);
  const res = await t.app.inject({ method: "GET", url: "/api/site-links" });
  expect(res.statusCode, res.body).toBe(200);
  return { res };
}

describe("GET /api/site-links", () => {
  test("without configuration there are no social links: the footer links to no account that is not ours", async () => {
    const { res } = await siteLinks();
    expect(res.json()).toEqual({ social: [] });
    // Public and the same for everyone, so pages drawn on the server may read it.
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });

  test("lists only the accounts configured, in the footer's order", async () => {
    const { res } = await siteLinks({
      SOCIAL_YOUTUBE_URL: "https://www.youtube.com/@our-channel",
      SOCIAL_LINKEDIN_URL: "https://www.linkedin.com/company/our-company",
    });
    expect(res.json()).toEqual({
      social: [
        { label: "LinkedIn", url: "https://www.linkedin.com/company/our-company" },
        { label: "YouTube", url: "https://www.youtube.com/@our-channel" },
      ],
    });
  });
});
