import { describe, expect, it } from "vitest";
import { html } from "./html.ts";

describe("the pages' html template", () => {
  it("escapes every interpolated text, in content and in attributes", () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      "<p title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;\">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>",
    );
    expect(html`<a href="${`" onclick="x`}">`.value).toBe(`<a href="&quot; onclick=&quot;x">`);
  });

  it("keeps nested templates as they are, joins arrays, and leaves nothing for null, undefined and false", () => {
    const items = ["a<b", "c"].map((t) => html`<li>${t}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe("<ul><li>a&lt;b</li><li>c</li></ul>0");
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td>${name}</td>`;
    expect(html`<tr>${[row, row]}${null}${undefined}${false}</tr>`.value).toBe(
      `<tr>${"<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td>".repeat(2)}</tr>`,
    );
  });
});
