import { html, type Html } from "@payrail/web";

/** The filters a list page passes on: empty ones (a form's "Any") left out. */
export function definedFilters<T extends Record<string, string | undefined>>(filters: T): Partial<T> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== "")) as Partial<T>;
}

/** A list page's "Next page" link: the same filters, the last row as the cursor (the API's own paging). */
export function nextPageLink(path: string, filters: Record<string, string | undefined>, page: { data: readonly { id: string }[]; has_more: boolean }): Html {
  const last = page.data.at(-1);
  if (!page.has_more || !last) return html``;
  const query = new URLSearchParams({ ...(definedFilters(filters) as Record<string, string>), starting_after: last.id });
  return html`<a href="${path}?${query.toString()}">Next page</a>`;
}
