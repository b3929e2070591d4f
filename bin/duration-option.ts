import { InvalidArgumentError } from "commander";

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A command-line duration (`0`, `500ms`, `30s`, `15m`, `1h`, `2d`), in milliseconds. */
export function durationOption(value: string): number {
  const match = /^(\d+)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError("a duration such as 0, 30s, 15m or 1h");
  return Number(match[1]) * UNIT_MS[(match[2] ?? "ms") as keyof typeof UNIT_MS];
}
