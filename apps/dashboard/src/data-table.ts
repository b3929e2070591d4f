import { html, Html } from "@payrail/web";

/** A column: its header, and `num` for amounts and counts (right-aligned while the table is a table). */
export interface Column {
  label: string;
  num?: boolean;
  /** Cells that hold buttons: under the breakpoint they span the card's width, unlabelled. */
  actions?: boolean;
}

type Content = Html | string | number | null | undefined;

/** A cell: its content, and the classes the stylesheet knows (`mono`). */
export type Cell = Content | { content: Content; className: string };

/**
 * A table of the dashboard. Wider than 600 px it is a table, in a scroll region of its own when
 * it is wider than the page (focusable, so the keyboard scrolls it); narrower, each row is a card
 * of label–value lines (the stylesheet shows each cell's `data-label`), so nothing scrolls
 * sideways and every button stays on screen at 375 px. `label` names the region: a page may hold
 * several tables, and landmarks of one page need names of their own.
 */
export function dataTable(label: string, columns: readonly Column[], rows: readonly (readonly Cell[])[]): Html {
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${label}"><table class="stack"><thead><tr>${columns.map(
    (c) => html`<th scope="col"${c.num ? html` class="num"` : ""}>${c.label}</th>`,
  )}</tr></thead><tbody>
    ${rows.map((cells) => html`<tr>${cells.map((cell, i) => td(columns[i], cell))}</tr>`)}
    </tbody></table></div>`;
}

function td(column: Column | undefined, cell: Cell): Html {
  const [content, extra] = cell !== null && typeof cell === "object" && !(cell instanceof Html) ? [cell.content, cell.className] : [cell, ""];
  const classes = [column?.num ? "num" : "", column?.actions ? "cell-actions" : "", extra].filter(Boolean).join(" ");
  return html`<td data-label="${column?.label ?? ""}"${classes ? html` class="${classes}"` : ""}>${content}</td>`;
}
