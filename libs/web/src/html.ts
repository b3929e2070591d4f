/**
 * Markup that is already safe: built by `html` (its text parts escaped where they were
 * interpolated) or written by this code, never from input. The dashboard's and the portal's
 * pages share it.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/**
 * The pages' template: `html\`<p>${text}</p>\``. Every interpolated value is escaped unless it
 * is `Html` already, which keeps a merchant's or consumer's own data (names, URLs, ids) from
 * becoming markup; arrays are joined; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0]!;
  parts.forEach((part, i) => {
    out += render(part) + strings[i + 1]!;
  });
  return new Html(out);
}
