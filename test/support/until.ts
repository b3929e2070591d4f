/**
 * Polls `check` every `everyMs` until it holds, for at most `timeoutMs`, and says what it waited
 * for when it gives up: events and deliveries are asynchronous.
 */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
