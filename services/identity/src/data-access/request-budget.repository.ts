import { DuplicateKeyError, type Store } from "@payrail/store";
import type { RequestBudgetsPort } from "../domain/ports/request-budgets.port.ts";

interface RequestBudgetRecord {
  /** `<hashed limit key>@<window start>`. */
  _id: string;
  /** Requests reserved by every gateway in the window so far. */
  count: number;
  expiresAt: string;
}

/**
 * Rounds of read-then-write a reservation tries when other gateways' reservations keep
 * changing the counter under it. A round is lost when another reservation moved the counter
 * between this one's read and its write: near the budget's end (less than a block left), or at
 * a window's opening with several gateways at once; past four such rounds the window is counted
 * as spent for this gateway.
 */
const ATTEMPTS = 4;

/** The gateways' shared request counters, one document per limit key and window (`request_budgets`). */
export class RequestBudgetRepository implements RequestBudgetsPort {
  constructor(private readonly store: Store) {}

  private get budgets() {
    return this.store.collection<RequestBudgetRecord>("request_budgets");
  }

  async ensureIndexes(): Promise<void> {
    await this.budgets.createIndex({ keys: { expiresAt: 1 }, name: "expires" });
  }

  async reserve(id: string, limit: number, count: number, expiresAt: string): Promise<{ granted: number; reserved: number }> {
    const want = Math.min(count, limit);
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // The usual case: the window has a whole block left.
      const whole = await this.budgets.findOneAndUpdate({ _id: id, count: { $lte: limit - want } }, { $inc: { count: want } });
      if (whole) return { granted: want, reserved: whole.count };
      const current = await this.budgets.findOne({ _id: id });
      if (current === null) {
        try {
          // The window's first reservation, from any gateway.
          await this.budgets.insertOne({ _id: id, count: want, expiresAt });
          return { granted: want, reserved: want };
        } catch (err) {
          if (!(err instanceof DuplicateKeyError)) throw err;
          continue; // another gateway opened it in between
        }
      }
      const left = limit - current.count;
      if (left <= 0) return { granted: 0, reserved: current.count };
      // What is left of the budget, up to what was asked, if no other reservation moved the
      // counter since it was read. Up to what was asked: the window may have had room for the
      // whole block all along (another gateway opened it between the first write and the read),
      // and a gateway granted the whole budget would leave every other one a spent window.
      const take = Math.min(left, want);
      const rest = await this.budgets.findOneAndUpdate({ _id: id, count: current.count }, { $inc: { count: take } });
      if (rest) return { granted: take, reserved: rest.count };
    }
    return { granted: 0, reserved: limit };
  }

  async purge(now: string, max: number): Promise<number> {
    return this.budgets.deleteOldest("expiresAt", now, { limit: max });
  }
}
