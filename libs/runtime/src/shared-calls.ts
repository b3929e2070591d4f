/**
 * Calls with the same key made while one is in flight in this process wait for it and answer
 * what it answers, instead of each doing the same work again: for idempotent operations that a
 * burst of identical requests (repeated clicks, retries) reaches at once, where the work is
 * store writes and a provider call that the first one makes and the rest would only find made.
 * A call that fails leaves each waiter to make its own call, so a failure tied to the first
 * caller (its deadline, a lost connection) never becomes the others'. Other processes are not
 * seen: what makes the operation safe across replicas must still hold (its idempotency).
 */
export class SharedCalls<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, call: () => Promise<T>): Promise<T> {
    const running = this.inFlight.get(key);
    if (running) return running.catch(() => this.run(key, call));
    const started = call().finally(() => {
      if (this.inFlight.get(key) === started) this.inFlight.delete(key);
    });
    this.inFlight.set(key, started);
    return started;
  }
}
