/** The value at percentile `p` (0–100) of ascending `sorted` latencies, nearest rank; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
