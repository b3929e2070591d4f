import { centsToDecimal, toCents } from "@payrail/contracts";
import { html, type Html } from "@payrail/web";
import { dataTable } from "./data-table.ts";

/** One day of the chart: the payments service's day (volumes as decimal strings). */
export interface ChartDay {
  day: string;
  settled: number;
  settled_volume: string;
  returned: number;
  returned_volume: string;
}

const WIDTH = 720;
const HEIGHT = 220;
const PLOT = { left: 8, right: 8, top: 24, bottom: 28 };

const cents = (decimal: string) => toCents(decimal) ?? 0;

/**
 * Daily volume and returns as an SVG drawn on the server: no script, no library, nothing the
 * page's CSP would refuse. Per day, the settled volume and the returned volume side by side on
 * one scale (a return counts on the day its debit was made, as the return rates count it). The
 * picture is one image to assistive technology (its title and a description with the totals);
 * the figures themselves are the table under it, which is the chart's text alternative.
 */
export function dailyChart(days: readonly ChartDay[], currency: string): Html {
  const settledTotal = days.reduce((sum, d) => sum + cents(d.settled_volume), 0);
  const returnedTotal = days.reduce((sum, d) => sum + cents(d.returned_volume), 0);
  const largest = Math.max(0, ...days.map((d) => Math.max(cents(d.settled_volume), cents(d.returned_volume))));
  // The scale's top: the largest day (1 cent when there is none, so no bar divides by zero).
  const top = Math.max(1, largest);
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(1, (slot - 2) / 2);
  const bar = (d: ChartDay, value: number, offset: number, kind: "settled" | "returned") => {
    const h = value === 0 ? 0 : Math.max(1, (value / top) * plotHeight);
    const x = PLOT.left + days.indexOf(d) * slot + 1 + offset;
    const y = PLOT.top + plotHeight - h;
    return html`<rect class="bar-${kind}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}"><title>${d.day}: ${centsToDecimal(value)} ${currency} ${kind}</title></rect>`;
  };
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  const summary = `${days.length} days from ${first} to ${last}: ${centsToDecimal(settledTotal)} ${currency} settled, ${centsToDecimal(returnedTotal)} ${currency} returned. The largest day is ${centsToDecimal(largest)} ${currency}. Each day's figures are in the table below.`;
  return html`<figure class="chart">
    <svg role="img" aria-labelledby="chart-title chart-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" xmlns="http://www.w3.org/2000/svg" focusable="false">
      <title id="chart-title">Daily settled volume and returns, last ${days.length} days</title>
      <desc id="chart-desc">${summary}</desc>
      <line class="axis" x1="${PLOT.left}" y1="${PLOT.top + plotHeight}" x2="${WIDTH - PLOT.right}" y2="${PLOT.top + plotHeight}"></line>
      <text class="axis-label" x="${PLOT.left}" y="14">${centsToDecimal(largest)} ${currency}</text>
      ${days.map((d) => html`${bar(d, cents(d.settled_volume), 0, "settled")}${bar(d, cents(d.returned_volume), barWidth, "returned")}`)}
      <text class="axis-label" x="${PLOT.left}" y="${HEIGHT - 8}">${first}</text>
      <text class="axis-label" x="${WIDTH - PLOT.right}" y="${HEIGHT - 8}" text-anchor="end">${last}</text>
    </svg>
    <figcaption><span class="key settled" aria-hidden="true"></span> Settled volume <span class="key returned" aria-hidden="true"></span> Returned volume
      <span class="muted">(a return counts on the day its debit was made)</span></figcaption>
  </figure>
  <details><summary>The chart's figures, day by day</summary>
  ${dataTable(
    "Chart figures by day",
    [{ label: "Day" }, { label: "Settled", num: true }, { label: "Settled volume", num: true }, { label: "Returned", num: true }, { label: "Returned volume", num: true }],
    days.map((d) => [d.day, d.settled, `${d.settled_volume} ${currency}`, d.returned, `${d.returned_volume} ${currency}`]),
  )}</details>`;
}
