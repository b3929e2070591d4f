import { DateBound } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { z } from "zod";

const DAY_MS = 86_400_000;
const PLAIN_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An empty date field (the form's cleared input) is no bound; anything else is the API's DateBound, or the API's 400 naming the field. */
const OptionalBound = z.union([z.literal(""), DateBound]).optional().transform((v) => v || undefined);

/** The date fields a list page takes: what the merchant typed, as the page's own URL keeps it. */
export const DateRangeQuery = z.object({ from: OptionalBound, to: OptionalBound });
export type DateRange = z.infer<typeof DateRangeQuery>;

/**
 * The window as the API takes it. A merchant picking "to 30 November" means the 30th included
 * (as Stripe's dashboard does), so a plain `to` date becomes the next day's midnight, the API's
 * exclusive bound; a full time is passed as it is.
 */
export function apiWindow(range: DateRange): { from?: string; to?: string } {
  const to = range.to && PLAIN_DATE.test(range.to) ? new Date(Date.parse(`${range.to}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10) : range.to;
  return { ...(range.from ? { from: range.from } : {}), ...(to ? { to } : {}) };
}

/** The From and To fields of a list's filter form (native date pickers; both days included). */
export function dateFields(range: DateRange): Html {
  const field = (name: "from" | "to", label: string) => {
    const value = range[name] ?? "";
    // A full time from a shared link stays editable as text; a date gets the date picker.
    const type = value === "" || PLAIN_DATE.test(value) ? "date" : "text";
    return html`<div><label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${value}"></div>`;
  };
  return html`${field("from", "From")}${field("to", "To (included)")}`;
}

/** An export link: the API's CSV of the list with the filters the page shows (the download reads them, not the page). */
export function exportLink(name: string, label: string, filters: Record<string, string | undefined>): Html {
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== "")).toString();
  return html`<a class="button secondary" href="/dashboard/exports/${name}${query ? `?${query}` : ""}" download>${label}</a>`;
}
