/**
 * `fn`'s value as one promise, and its throw as a rejected one, without an async function's frame:
 * the reads on a Get's path are synchronous underneath (better-sqlite3, the index check), and
 * an async wrapper per layer cost every read a promise and a turn of its own. A promise `fn`
 * returns is handed back as it is.
 */
export function settled<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}
