import { describe, expect, test } from "vitest";
import { sanitizePageHtml } from "#server/lib/sanitize";

describe("sanitizePageHtml", () => {
  test("script and style elements go with their contents", () => {
    expect(sanitizePageHtml("<p>Hi</p><script>alert(1)</script><style>p{display:none}</style>")).toBe(
      "<p>Hi</p>",
    );
    expect(sanitizePageHtml("<SCRIPT SRC=//evil.example/x.js></SCRIPT><p>ok</p>")).toBe("<p>ok</p>");
  });

  test("event handler and style attributes are removed", () => {
    expect(sanitizePageHtml('<img src=x onerror="alert(1)">')).toBe('<img src="x" />');
    expect(sanitizePageHtml('<p style="position:fixed" onclick="steal()" class="x">Text</p>')).toBe(
      "<p>Text</p>",
    );
  });

  test("javascript:, data: and other schemes are removed from links and images", () => {
    expect(sanitizePageHtml('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizePageHtml('<a href="  JaVaScRiPt:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizePageHtml('<a href="jav&#x09;ascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizePageHtml('<a href="data:text/html,<script>alert(1)</script>">x</a>')).toBe("<a>x</a>");
    expect(sanitizePageHtml('<img src="data:image/png;base64,AAAA">')).toBe("<img />");
    expect(sanitizePageHtml('<img src="mailto:a@b.example">')).toBe("<img />");
  });

  test("iframes, objects, forms and embeds are removed", () => {
    expect(sanitizePageHtml('<iframe src="https://www.youtube.com/embed/x"></iframe><p>a</p>')).toBe(
      "<p>a</p>",
    );
    expect(sanitizePageHtml('<object data="x.swf"></object><embed src="x"><p>b</p>')).toBe("<p>b</p>");
    expect(sanitizePageHtml('<form action="/steal"><input name="password"><button>Go</button></form>')).toBe(
      "Go",
    );
  });

  test("formatting, structure, tables and safe links and images are kept", () => {
    const html = [
      "<h2>Title</h2>",
      "<p><strong>Bold</strong>, <em>italic</em>, <u>under</u>, <s>gone</s> and <code>x = 1</code></p>",
      '<ul><li>One</li></ul><ol start="3"><li>Three</li></ol>',
      "<blockquote>Quote</blockquote><pre><code>const a = 1;</code></pre><hr /><br />",
      '<p><a href="https://stackbay.test/a" title="A">web</a> <a href="/pages/terms">relative</a> <a href="mailto:help@stackbay.test">mail</a></p>',
      '<figure><img src="https://cdn.example.com/a.png" alt="A" width="640" height="360" /><figcaption>Caption</figcaption></figure>',
      '<table><thead><tr><th scope="col">H</th></tr></thead><tbody><tr><td colspan="2">D</td></tr></tbody></table>',
      '<div><span lang="fr">bonjour</span></div>',
    ].join("");
    expect(sanitizePageHtml(html)).toBe(html);
  });

  test('links opening a new tab get rel="noopener noreferrer"', () => {
    expect(sanitizePageHtml('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizePageHtml('<a href="https://example.com" target="_blank" rel="nofollow">x</a>')).toBe(
      '<a href="https://example.com" rel="nofollow noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizePageHtml('<a href="/x" target="_top">x</a>')).toBe('<a href="/x">x</a>');
  });

  test("text is escaped, not interpreted", () => {
    expect(sanitizePageHtml('<p>1 < 2 & "quotes"</p>')).toBe('<p>1 &lt; 2 &amp; "quotes"</p>');
  });
});
