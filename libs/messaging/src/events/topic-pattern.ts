import { EVENT_TYPES, INTERNAL_EVENT_TYPES } from "@payrail/contracts";

const PATTERN = /^(\*|#|[a-z_]+)(\.(\*|#|[a-z_]+))*$/;

/**
 * AMQP topic matching, as the broker does it for bindings: words are split on `.`, `*` stands
 * for exactly one word and `#` for zero or more. The in-process bus routes with it, and both
 * transports use it to skip events a queue still receives from a binding since dropped.
 */
export function matchesTopic(pattern: string, key: string): boolean {
  return matchWords(pattern.split("."), 0, key.split("."), 0);
}

/** Event types a matcher remembers its answer for; a type past them (off the catalogue, from the wire) is matched each time. */
export const MATCHER_MEMORY = 256;

/**
 * `matchesTopic` against a set of patterns, its answer per type remembered: every publish and
 * delivery asks about one of a few dozen types, and matching splits both strings each time.
 */
export function topicMatcher(patterns: Iterable<string>): (type: string) => boolean {
  const own = [...patterns];
  const known = new Map<string, boolean>();
  return (type) => {
    let wanted = known.get(type);
    if (wanted === undefined) {
      wanted = own.some((pattern) => matchesTopic(pattern, type));
      if (known.size < MATCHER_MEMORY) known.set(type, wanted);
    }
    return wanted;
  };
}

function matchWords(pattern: string[], i: number, key: string[], j: number): boolean {
  if (i === pattern.length) return j === key.length;
  const word = pattern[i];
  if (word === "#") {
    for (let rest = j; rest <= key.length; rest++) if (matchWords(pattern, i + 1, key, rest)) return true;
    return false;
  }
  return j < key.length && (word === "*" || word === key[j]) && matchWords(pattern, i + 1, key, j + 1);
}

/**
 * Refuses a pattern that is malformed or matches no known type (of the catalogue or internal):
 * a typo would otherwise subscribe to nothing, silently.
 */
export function checkPatterns(patterns: readonly string[]): void {
  if (patterns.length === 0) throw new Error("subscribe needs at least one event type or pattern");
  for (const pattern of patterns) {
    if (!PATTERN.test(pattern) || ![...EVENT_TYPES, ...INTERNAL_EVENT_TYPES].some((type) => matchesTopic(pattern, type))) {
      throw new Error(`"${pattern}" matches no event type of the catalogue`);
    }
  }
}
