import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { auditLog } from "#server/db/schema/audit";
import { sitePages } from "#server/db/schema/content";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Awaited<ReturnType<typeof signedInClient>>;
beforeAll(async () => {
  // A stand-in build, so the page loads get their <head> without running Vite.
  const webRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-web-"));
  await mkdir(path.join(webRoot, "assets"));
  await writeFile(path.join(webRoot, "index.html"), "<html><head><!--app-head--></head><body></body></html>");
  t = await createTestApp({ seed: true, webRoot });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

const auditOf = (entityId: string) =>
  t.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(desc(auditLog.createdAt));

const draft = (slug: string, extra: object = {}) => ({
  title: `Page ${slug}`,
  slug,
  content: "<h2>Hello</h2><p>World</p>",
  ...extra,
});

describe("admin pages", () => {
  test("create, read, edit and delete a page, each change in the audit trail", async () => {
    const created = await admin.post("/api/admin/pages", {
      ...draft("shipping"),
      seoMeta: { title: "Shipping | Stackbay", description: "How we ship.", ogImageUrl: "" },
    });
    expect(created.statusCode).toBe(201);
    const page = created.json().page;
    expect(page).toMatchObject({
      slug: "shipping",
      title: "Page shipping",
      content: "<h2>Hello</h2><p>World</p>",
      // Not asked to publish: a new page is a draft.
      isActive: false,
      seoMeta: { title: "Shipping | Stackbay", description: "How we ship.", ogImageUrl: "" },
    });
    const [stored] = await t.db.select().from(sitePages).where(eq(sitePages.id, page.id));
    expect(stored?.seoMeta).toEqual({ title: "Shipping | Stackbay", description: "How we ship." });
    const [createdEntry] = await auditOf(page.id);
    expect(createdEntry).toMatchObject({
      action: "create",
      entityType: "page",
      entityLabel: "Page shipping",
      actorEmail: "admin@stackbay.test",
    });
    expect(createdEntry?.changes.slug).toEqual({ before: null, after: "shipping" });

    const one = await admin.get(`/api/admin/pages/${page.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers["cache-control"]).toBe("private, no-store");
    expect(one.json().page).toEqual(page);

    const edited = await admin.patch(`/api/admin/pages/${page.id}`, {
      ...draft("shipping-and-returns"),
      title: "Shipping and Returns",
      isActive: true,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().page).toMatchObject({
      slug: "shipping-and-returns",
      title: "Shipping and Returns",
      isActive: true,
      // Left out of the body: kept.
      seoMeta: { title: "Shipping | Stackbay" },
    });
    expect(new Date(edited.json().page.updatedAt).getTime()).toBeGreaterThan(
      new Date(page.updatedAt).getTime(),
    );
    const [updatedEntry] = await auditOf(page.id);
    expect(updatedEntry).toMatchObject({ action: "update", entityLabel: "Shipping and Returns" });
    expect(updatedEntry?.changes).toEqual({
      slug: { before: "shipping", after: "shipping-and-returns" },
      title: { before: "Page shipping", after: "Shipping and Returns" },
      isActive: { before: false, after: true },
    });

    // Leaving isActive out of an update keeps the page published.
    const again = await admin.patch(`/api/admin/pages/${page.id}`, {
      ...draft("shipping-and-returns"),
      title: "Shipping and Returns",
    });
    expect(again.json().page.isActive).toBe(true);

    const deleted = await admin.request("DELETE", `/api/admin/pages/${page.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ ok: true });
    expect(await t.db.select().from(sitePages).where(eq(sitePages.id, page.id))).toEqual([]);
    const [deletedEntry] = await auditOf(page.id);
    expect(deletedEntry).toMatchObject({ action: "delete", entityLabel: "Shipping and Returns" });
    expect(deletedEntry?.changes.title).toEqual({ before: "Shipping and Returns", after: null });

    expect((await admin.get(`/api/admin/pages/${page.id}`)).statusCode).toBe(404);
    expect((await admin.request("DELETE", `/api/admin/pages/${page.id}`)).statusCode).toBe(404);
    expect((await admin.patch(`/api/admin/pages/${page.id}`, draft("x"))).statusCode).toBe(404);
    expect((await admin.get("/api/admin/pages/not-a-uuid")).json().code).toBe("PAGE_NOT_FOUND");
  });

  test("unsafe HTML is stored sanitised, on create and on update", async () => {
    const dirty =
      '<h2>Title</h2><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">click</a><iframe src="https://evil.example"></iframe>';
    const created = await admin.post("/api/admin/pages", draft("dirty", { content: dirty }));
    expect(created.statusCode).toBe(201);
    const clean = '<h2>Title</h2><img src="x" /><a>click</a>';
    expect(created.json().page.content).toBe(clean);
    const id = created.json().page.id;
    const [row] = await t.db.select().from(sitePages).where(eq(sitePages.id, id));
    expect(row?.content).toBe(clean);

    const updated = await admin.patch(
      `/api/admin/pages/${id}`,
      draft("dirty", { content: `<p>x</p>${dirty}` }),
    );
    expect(updated.json().page.content).toBe(`<p>x</p>${clean}`);

    const onlyScript = await admin.post(
      "/api/admin/pages",
      draft("only-script", { content: "<script>x()</script>" }),
    );
    expect(onlyScript.statusCode).toBe(400);
    expect(onlyScript.json().details).toEqual([
      { path: "content", message: expect.stringContaining("Content is required") },
    ]);
  });

  test("what the rich-text editor writes survives the save: tables, uploaded images with alt, links with rel", async () => {
    // Tiptap's HTML for a heading, a list, a link, an uploaded image and a table with a header row.
    const fromEditor = [
      "<h2>Plans</h2><h3>Teams</h3>",
      "<ul><li><p>One <strong>bold</strong> and <em>italic</em></p></li></ul><ol><li><p>First</p></li></ol>",
      '<p><a target="_blank" rel="noopener noreferrer nofollow" href="https://stackbay.test/docs">docs</a> or <a target="_blank" rel="noopener noreferrer nofollow" href="mailto:help@stackbay.test">mail us</a></p>',
      '<img src="/uploads/0f5e2c1a.webp" alt="A bar chart of monthly sales">',
      '<table style="min-width: 75px"><colgroup><col style="min-width: 25px"><col style="min-width: 25px"></colgroup><tbody>',
      '<tr><th colspan="1" rowspan="1"><p>Plan</p></th><th colspan="1" rowspan="1"><p>Price</p></th></tr>',
      '<tr><td colspan="1" rowspan="1"><p>Team</p></td><td colspan="1" rowspan="1"><p>$9 / month</p></td></tr>',
      "</tbody></table>",
    ].join("");
    const created = await admin.post("/api/admin/pages", draft("from-editor", { content: fromEditor }));
    expect(created.statusCode).toBe(201);
    expect(created.json().page.content).toBe(
      [
        "<h2>Plans</h2><h3>Teams</h3>",
        "<ul><li><p>One <strong>bold</strong> and <em>italic</em></p></li></ul><ol><li><p>First</p></li></ol>",
        '<p><a rel="noopener noreferrer nofollow" href="https://stackbay.test/docs" target="_blank">docs</a> or <a rel="noopener noreferrer nofollow" href="mailto:help@stackbay.test" target="_blank">mail us</a></p>',
        '<img src="/uploads/0f5e2c1a.webp" alt="A bar chart of monthly sales" />',
        // Only the editor's column sizing goes: inline styles are never kept.
        "<table><tbody>",
        '<tr><th colspan="1" rowspan="1"><p>Plan</p></th><th colspan="1" rowspan="1"><p>Price</p></th></tr>',
        '<tr><td colspan="1" rowspan="1"><p>Team</p></td><td colspan="1" rowspan="1"><p>$9 / month</p></td></tr>',
        "</tbody></table>",
      ].join(""),
    );
  });

  test("hostile HTML typed in the editor's source mode is stripped on save", async () => {
    const hostile = [
      "<h2>Kept</h2>",
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(1)>",
      '<img src="javascript:alert(1)" alt="j">',
      '<a href="javascript:alert(1)">js</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">entity</a>',
      '<iframe src="https://evil.example" srcdoc="<script>alert(1)</script>"></iframe>',
      '<p style="width: expression(alert(1)); background: url(javascript:alert(1))">styled</p>',
      "<style>body { background: url(javascript:alert(1)) }</style>",
      '<svg onload="alert(1)"><circle /></svg>',
      "<math><mtext><table><mglyph><style><img src=x onerror=alert(2)></style></mglyph></table></mtext></math>",
      '<table onmouseover="alert(1)"><tbody><tr><td onclick="alert(1)" style="color:red">cell</td></tr></tbody></table>',
      '<object data="x.swf"></object><embed src="x.swf"><form action="/x"><input name="p"></form>',
      '<a href="https://example.com" target="_top" data-x="1" class="c">top</a>',
    ].join("");
    const created = await admin.post("/api/admin/pages", draft("hostile-editor", { content: hostile }));
    expect(created.statusCode).toBe(201);
    const stored = created.json().page.content as string;
    expect(stored).toBe(
      [
        "<h2>Kept</h2>",
        '<img src="x" />',
        '<img alt="j" />',
        "<a>js</a>",
        "<a>entity</a>",
        "<p>styled</p>",
        // The MathML mutation payload leaves only its harmless empty table.
        "<table></table>",
        "<table><tbody><tr><td>cell</td></tr></tbody></table>",
        '<a href="https://example.com">top</a>',
      ].join(""),
    );
    expect(stored).not.toMatch(
      /script|onerror|onload|onclick|onmouseover|javascript|expression|iframe|<style|style=|svg/i,
    );
    // The public page answers the stored, sanitised HTML.
    await admin.patch(`/api/admin/pages/${created.json().page.id}`, {
      ...draft("hostile-editor", { content: stored }),
      isActive: true,
    });
    const shown = await createClient(t.app).get("/api/pages/hostile-editor");
    expect(shown.json().page.content).toBe(stored);
  });

  test("slug rules: the spec's messages, and a taken slug is a conflict", async () => {
    for (const slug of ["Shipping", "two words"]) {
      const res = await admin.post("/api/admin/pages", draft(slug));
      expect(res.statusCode, slug).toBe(400);
      expect(res.json().details[0]).toEqual({
        path: "slug",
        message: "Slug can only contain lowercase letters, numbers, and hyphens",
      });
    }
    const empty = await admin.post("/api/admin/pages", { title: "", slug: "", content: "" });
    expect(empty.json().details.map((d: { message: string }) => d.message)).toEqual(
      expect.arrayContaining(["Title is required", "Slug is required", "Content is required"]),
    );
    const badImage = await admin.post(
      "/api/admin/pages",
      draft("bad-image", { seoMeta: { ogImageUrl: "javascript:alert(1)" } }),
    );
    expect(badImage.json().details[0]).toEqual({
      path: "seoMeta.ogImageUrl",
      message: "OG image URL must be a valid URL or empty",
    });

    const taken = await admin.post("/api/admin/pages", draft("buyer-protection"));
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      code: "PAGE_SLUG_TAKEN",
      message: "A page with the slug 'buyer-protection' already exists.",
    });
    const other = (await admin.post("/api/admin/pages", draft("other-page"))).json().page;
    const renamed = await admin.patch(`/api/admin/pages/${other.id}`, draft("buyer-protection"));
    expect(renamed.statusCode).toBe(409);
    // Saving a page under its own slug is no conflict.
    expect((await admin.patch(`/api/admin/pages/${other.id}`, draft("other-page"))).statusCode).toBe(200);
    expect(await auditOf(other.id)).toHaveLength(1);
  });

  test("the list shows drafts too, newest updated first, and searches title or slug", async () => {
    const a = (await admin.post("/api/admin/pages", draft("list-alpha", { title: "Warranty Terms" }))).json()
      .page;
    const b = (await admin.post("/api/admin/pages", draft("list-beta", { isActive: true }))).json().page;
    const all = (await admin.get("/api/admin/pages")).json().items;
    expect(all.slice(0, 2).map((p: { id: string }) => p.id)).toEqual([b.id, a.id]);
    expect(all[0]).toEqual({
      id: b.id,
      slug: "list-beta",
      title: "Page list-beta",
      isActive: true,
      updatedAt: b.updatedAt,
    });
    expect(all.map((p: { slug: string }) => p.slug)).toContain("buyer-protection");

    const byTitle = (await admin.get("/api/admin/pages?search=warranty")).json().items;
    expect(byTitle.map((p: { id: string }) => p.id)).toEqual([a.id]);
    const bySlug = (await admin.get("/api/admin/pages?search=LIST-")).json().items;
    expect(bySlug).toHaveLength(2);
    expect((await admin.get("/api/admin/pages?search=%25")).json().items).toEqual([]);
  });

  test("only admins manage pages: anonymous 401, a buyer or seller 403", async () => {
    const anonymous = createClient(t.app);
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const [page] = await t.db.select().from(sitePages).limit(1);
    const calls = [
      ["GET", "/api/admin/pages"],
      ["POST", "/api/admin/pages"],
      ["GET", `/api/admin/pages/${page?.id}`],
      ["PATCH", `/api/admin/pages/${page?.id}`],
      ["DELETE", `/api/admin/pages/${page?.id}`],
    ] as const;
    for (const [method, url] of calls) {
      const body = method === "POST" || method === "PATCH" ? draft("nope") : undefined;
      expect((await anonymous.request(method, url, body)).statusCode, `${method} ${url}`).toBe(401);
      expect((await buyer.request(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await seller.request(method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await t.db.select().from(sitePages).where(eq(sitePages.slug, "nope"))).toEqual([]);
  });
});

describe("public pages", () => {
  test("an active page is public; a draft or a missing one is 404", async () => {
    const page = (
      await admin.post("/api/admin/pages", {
        ...draft("public-one"),
        seoMeta: {
          title: "SEO Title",
          description: "SEO description.",
          ogImageUrl: "https://cdn.example.com/og.png",
        },
      })
    ).json().page;
    const visitor = createClient(t.app);
    const hidden = await visitor.get("/api/pages/public-one");
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ code: "PAGE_NOT_FOUND", message: "Page not found." });
    expect((await visitor.get("/api/pages/no-such-page")).statusCode).toBe(404);

    await admin.patch(`/api/admin/pages/${page.id}`, { ...draft("public-one"), isActive: true });
    const shown = await visitor.get("/api/pages/public-one");
    expect(shown.statusCode).toBe(200);
    expect(shown.headers["cache-control"]).toBe("public, no-cache");
    const { updatedAt } = (await admin.get(`/api/admin/pages/${page.id}`)).json().page;
    expect(shown.json()).toEqual({
      page: {
        slug: "public-one",
        title: "Page public-one",
        content: "<h2>Hello</h2><p>World</p>",
        seoMeta: {
          title: "SEO Title",
          description: "SEO description.",
          ogImageUrl: "https://cdn.example.com/og.png",
        },
        updatedAt,
      },
    });
  });

  test("the page load's <head> uses the SEO title, description and og image; the sitemap lists active pages only", async () => {
    await admin.post("/api/admin/pages", {
      ...draft("seo-page", { title: "Plain Title", isActive: true }),
      seoMeta: {
        title: "Better SEO Title",
        description: "Told for search.",
        ogImageUrl: "https://cdn.example.com/seo.png",
      },
    });
    await admin.post("/api/admin/pages", draft("seo-draft", { title: "Draft Only" }));
    await admin.post("/api/admin/pages", draft("no-seo", { title: "No SEO Here", isActive: true }));

    const res = await t.app.inject({ method: "GET", url: "/pages/seo-page" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>Better SEO Title</title>");
    expect(res.body).toContain('<meta name="description" content="Told for search." />');
    expect(res.body).toContain('<meta property="og:image" content="https://cdn.example.com/seo.png" />');
    expect(res.body).toContain('<meta property="og:type" content="article" />');

    const plain = await t.app.inject({ method: "GET", url: "/pages/no-seo" });
    expect(plain.body).toContain("<title>No SEO Here</title>");
    // Without an SEO description the text of the page stands in.
    expect(plain.body).toContain('<meta name="description" content="Hello World" />');
    expect(plain.body).not.toContain("og:image");

    expect((await t.app.inject({ method: "GET", url: "/pages/seo-draft" })).statusCode).toBe(404);

    const sitemap = (await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(sitemap).toContain("<loc>http://127.0.0.1:3000/pages/seo-page</loc>");
    expect(sitemap).not.toContain("/pages/seo-draft");
  });
});
