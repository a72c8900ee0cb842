import { describe, expect, test } from "vitest";
import {
  contentBlockInputSchema,
  contentBlockKeySchema,
  PAGE_LINK_MESSAGE,
  pageImageAltSchema,
  pageInputSchema,
  pageLinkSchema,
} from "#domain/cms";
import { contentBlockRegistry, isKnownContentBlock, knownContentBlockKeys } from "#domain/content-blocks";
import { slugify } from "#domain/slug";

const valid = { title: "Shipping", slug: "shipping", content: "<p>We ship.</p>" };

/** The first message of each failing field, as the form shows them. */
function messages(input: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  for (const issue of pageInputSchema.safeParse(input).error?.issues ?? []) {
    found[issue.path.join(".")] ??= issue.message;
  }
  return found;
}

describe("page form", () => {
  test("a minimal page is valid; active and SEO fields stay unset for the server to decide", () => {
    expect(pageInputSchema.parse(valid)).toEqual(valid);
    expect(pageInputSchema.parse({ ...valid, seoMeta: {} }).seoMeta).toEqual({
      title: "",
      description: "",
      ogImageUrl: "",
    });
  });

  test("required fields carry the spec's messages", () => {
    expect(messages({ title: " ", slug: "", content: "  " })).toEqual({
      title: "Title is required",
      slug: "Slug is required",
      content: "Content is required",
    });
  });

  test.each(["Hello", "hello world", "héllo", "a_b", "a/b"])("slug %j is refused", (slug) => {
    expect(messages({ ...valid, slug })).toEqual({
      slug: "Slug can only contain lowercase letters, numbers, and hyphens",
    });
  });

  test("og image is an http(s) URL or empty", () => {
    for (const ogImageUrl of ["", "https://cdn.example.com/og.png", "http://example.com/a.jpg"]) {
      expect(messages({ ...valid, seoMeta: { ogImageUrl } })).toEqual({});
    }
    for (const ogImageUrl of ["not a url", "javascript:alert(1)", "ftp://example.com/a.png", "/og.png"]) {
      expect(messages({ ...valid, seoMeta: { ogImageUrl } }), ogImageUrl).toEqual({
        "seoMeta.ogImageUrl": "OG image URL must be a valid URL or empty",
      });
    }
  });

  test("long fields are refused with their limit", () => {
    expect(messages({ ...valid, title: "x".repeat(201) })).toEqual({
      title: "Title must be at most 200 characters",
    });
    expect(messages({ ...valid, slug: "a".repeat(101) })).toEqual({
      slug: "Slug must be at most 100 characters",
    });
  });
});

describe("slug generation", () => {
  test.each([
    ["About Us", "about-us"],
    ["  Terms & Conditions  ", "terms-conditions"],
    ["Shipping -- Returns", "shipping-returns"],
    ["FAQ 2026: What's new?", "faq-2026-whats-new"],
    ["Café au lait", "caf-au-lait"],
  ])("%j becomes %j, which the form accepts", (title, slug) => {
    expect(slugify(title)).toBe(slug);
    expect(messages({ ...valid, slug: slugify(title) })).toEqual({});
  });
});

describe("content blocks", () => {
  test("keys follow a safe pattern and every known key fits it", () => {
    for (const key of knownContentBlockKeys) expect(contentBlockKeySchema.safeParse(key).success).toBe(true);
    for (const key of ["", "Home.title", "../etc", "a b", ".hidden", "x".repeat(81)]) {
      expect(contentBlockKeySchema.safeParse(key).success, key).toBe(false);
    }
  });

  test("text is required and limited to 5,000 characters", () => {
    expect(contentBlockInputSchema.safeParse({ content: " " }).error?.issues[0]?.message).toBe(
      "Content is required",
    );
    expect(contentBlockInputSchema.safeParse({ content: "x".repeat(5001) }).error?.issues[0]?.message).toBe(
      "Content must be at most 5,000 characters",
    );
    expect(contentBlockInputSchema.parse({ content: "  Hello  " })).toEqual({ content: "Hello" });
  });

  test("the registry covers the home page and footer texts", () => {
    expect(isKnownContentBlock("home.hero.title")).toBe(true);
    expect(isKnownContentBlock("toString")).toBe(false);
    expect(contentBlockRegistry["home.hero.title"].defaultText).toBe("Welcome to Stackbay");
    expect(knownContentBlockKeys).toEqual(
      expect.arrayContaining([
        "home.hero.subtitle",
        "home.cta.title",
        "footer.tagline",
        "home.values.secure",
      ]),
    );
  });
});

describe("page editor links and images", () => {
  test("links are web pages or e-mail addresses, nothing that could run or that depends on the page", () => {
    for (const ok of [
      "https://stackbay.test/pages/terms",
      "http://example.com",
      "mailto:help@stackbay.test",
    ]) {
      expect(pageLinkSchema.safeParse(ok).success, ok).toBe(true);
    }
    expect(pageLinkSchema.parse("  https://example.com  ")).toBe("https://example.com");
    for (const bad of [
      "",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:x",
      "/pages/terms",
      "example.com",
      "ftp://example.com",
      "mailto:",
      "mailto:not an address",
    ]) {
      expect(pageLinkSchema.safeParse(bad).error?.issues[0]?.message, bad).toBe(PAGE_LINK_MESSAGE);
    }
  });

  test("an image needs alt text", () => {
    expect(pageImageAltSchema.safeParse("  ").error?.issues[0]?.message).toBe(
      "Describe the image for readers who cannot see it",
    );
    expect(pageImageAltSchema.parse(" A bar chart of sales ")).toBe("A bar chart of sales");
  });
});
