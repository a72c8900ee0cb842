import { expect, test } from "vitest";
import type { PublicPage } from "#domain/cms";
import { renderPage } from "#web/entry-server";

/** An app's answers for the server's renderer: its own content page, a moment late, as a database's would be. */
function appAnswering(title: string): typeof fetch {
  return async (input) => {
    const { pathname } = new URL(input instanceof Request ? input.url : input);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    if (pathname !== "/api/pages/about-us")
      return Response.json({ code: "NOT_FOUND", message: "Not found" }, { status: 404 });
    const page: PublicPage = {
      slug: "about-us",
      title,
      content: `<p>${title}</p>`,
      seoMeta: { title, description: "", ogImageUrl: "" },
      updatedAt: new Date(0).toISOString(),
    };
    return Response.json({ page });
  };
}

test("renders that overlap each read from the app that asked for them", async () => {
  const apps = ["Page of the first app", "Page of the second app"].map((title) => ({
    title,
    fetch: appAnswering(title),
  }));
  const renders = Array.from({ length: 6 }, (_, i) => apps[i % 2] as (typeof apps)[number]).map(
    async ({ title, fetch }) => ({
      title,
      page: await renderPage("http://stackbay.internal/pages/about-us", fetch),
    }),
  );
  for (const { title, page } of await Promise.all(renders)) {
    expect(page?.html).toContain(title);
    expect(page?.html).not.toContain(title.includes("first") ? "second app" : "first app");
  }
});

test("the header, the page's content and the footer are drawn as parts that hydrate apart from the rest", async () => {
  // React hydrates what is outside every Suspense boundary in one task that does not yield; each boundary
  // (`HydrateLater`) is hydrated later in slices that do (decision 0024). Its markers in the drawn page
  // show where a boundary is.
  const page = await renderPage("http://stackbay.internal/about", async () =>
    Response.json({ code: "UNAUTHORIZED", message: "Sign in" }, { status: 401 }),
  );
  const html = page?.html ?? "";
  expect(html).toMatch(/<!--\$--><header data-testid="navbar"/);
  expect(html).toMatch(/<main id="main"[^>]*><!--\$-->/);
  expect(html).toMatch(/<!--\$--><footer/);
});
