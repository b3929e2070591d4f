import { parseDuration } from "@payrail/runtime";
import { InvalidArgumentError } from "commander";

/** A command-line duration (`0`, `500ms`, `30s`, `15m`, `1h`, `2d`), in milliseconds, as the configuration reads them. */
export function durationOption(value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined) throw new InvalidArgumentError("a duration such as 0, 30s, 15m or 1h");
  return ms;
}
