import { describe, expect, it } from "vitest";
import { html } from "./html.ts";

describe("the dashboard's html template", () => {
  it("escapes interpolated text, keeps nested markup, and renders nothing for empty values", () => {
    const name = `<script>alert("x")</script>&'`;
    const row = html`<td>${name}</td>`;
    expect(html`<tr>${[row, row]}${null}${undefined}${false}</tr>`.value).toBe(
      `<tr>${"<td>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</td>".repeat(2)}</tr>`,
    );
    expect(html`<a href="${`" onclick="x`}">`.value).toBe(`<a href="&quot; onclick=&quot;x">`);
  });
});
