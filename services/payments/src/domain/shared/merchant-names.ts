import type { RequestMeta } from "./ports/checkouts.port.ts";
import type { MerchantsPort } from "./ports/merchants.port.ts";

/** The names of a page's merchants, each asked of identity once (a page names a handful). */
export async function merchantNames(
  deps: { merchants: Pick<MerchantsPort, "merchantName"> },
  meta: RequestMeta,
  merchantIds: readonly string[],
): Promise<Map<string, string>> {
  const unique = [...new Set(merchantIds)];
  const names = await Promise.all(unique.map((id) => deps.merchants.merchantName(meta, id)));
  return new Map(unique.map((id, i) => [id, names[i]!]));
}

/** A page of a list fetched with one extra item: the page, whether more follow, and the next page's cursor. */
export function pageOf<T>(items: readonly T[], limit: number, cursorOf: (item: T) => number): { page: T[]; has_more: boolean; next_cursor: string | null } {
  const page = items.slice(0, limit);
  const has_more = items.length > limit;
  const last = page[page.length - 1];
  return { page, has_more, next_cursor: has_more && last !== undefined ? String(cursorOf(last)) : null };
}
