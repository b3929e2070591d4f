import { ANONYMOUS, isOperatorOp, resolveApiKeyOp, sendNoticeSmsOp, type Operation } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { dispatchRequest } from "./dispatch-request.ts";
import { encodeRequest } from "./encode-request.ts";
import { ExpiredRequests } from "./expired-requests.ts";
import { createHandlerTable } from "./handler-table.ts";
import type { ReplyLedger } from "./reply-ledger.port.ts";
import type { CallContext, CallOptions } from "../transport.port.ts";

/** libs/store's error, recreated by name: libs/messaging does not import libs/store. */
class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

const run = async (handler: (payload: unknown, ctx: CallContext) => Promise<unknown>) => {
  const table = createHandlerTable("identity", [{ operation: resolveApiKeyOp, handler }]);
  const message = JSON.parse(encodeRequest(resolveApiKeyOp, { api_key: "sk_test_x" }, { requestId: "req_1", principal: ANONYMOUS }, 5_000));
  const logger = silentLogger();
  return dispatchRequest(table, message, logger, new ExpiredRequests(logger));
};

describe("dispatchRequest maps handler failures", () => {
  it("answers service_unavailable with a retry delay when the store is down", async () => {
    const reply = await run(async () => {
      throw new StoreUnavailableError("embedded store is closed");
    });
    expect(reply).toMatchObject({ ok: false, error: { code: "service_unavailable", retryAfter: 1 } });
    // The store's own words (paths, hosts) stay in the service's log.
    expect(JSON.stringify(reply)).not.toContain("embedded store");
  });

  it("recognises a StoreUnavailableError wrapped as the cause of another error", async () => {
    const reply = await run(async () => {
      throw new Error("repository failed", { cause: new StoreUnavailableError("down") });
    });
    expect(reply).toMatchObject({ ok: false, error: { code: "service_unavailable" } });
  });

  it("keeps any other unexpected throw a generic internal_error", async () => {
    const reply = await run(async () => {
      throw new TypeError("bug");
    });
    expect(reply).toEqual({ ok: false, error: { code: "internal_error", message: "Internal error" } });
  });
});

describe("dispatchRequest's call context", () => {
  it("tells the handler when its caller stops waiting: the envelope's deadline, the send time plus the call's timeout", async () => {
    const sent = Date.now();
    let seen: number | undefined;
    await run(async (_payload, ctx) => {
      seen = ctx.deadline;
      return { valid: false };
    });
    expect(seen).toBeGreaterThanOrEqual(sent + 5_000);
    expect(seen).toBeLessThanOrEqual(Date.now() + 5_000);
  });
});

describe("dispatchRequest and the reply ledger", () => {
  /** A ledger that counts its claims and lets every one through. */
  const countingLedger = () => {
    const claims: string[] = [];
    const ledger: ReplyLedger = {
      claim: async (key) => {
        claims.push(key);
        return null;
      },
      renew: async () => true,
      finish: async () => undefined,
      release: async () => undefined,
    };
    return { ledger, claims };
  };
  const asPayments = { requestId: "req_1", principal: { kind: "service" as const, service: "payments" } };
  const dispatch = (operation: Operation, payload: unknown, ledger: ReplyLedger, options: CallOptions = {}) => {
    const table = createHandlerTable(operation.service, [{ operation, handler: async () => ({ operator: true }) }]);
    const message = JSON.parse(encodeRequest(operation, payload, asPayments, 5_000, options));
    const logger = silentLogger();
    return dispatchRequest(table, message, logger, new ExpiredRequests(logger), ledger);
  };
  const isOperator = { merchant_id: "mer_1", phone: "+15555550100" };

  it("keeps it out of an operation that only reads, called on a service's own account (which carries a call id)", async () => {
    const { ledger, claims } = countingLedger();
    expect(isOperatorOp.reads).toBe(true);
    expect(await dispatch(isOperatorOp, isOperator, ledger)).toMatchObject({ ok: true });
    expect(claims).toEqual([]);
  });

  it("still holds a command at most once, and a read under an Idempotency-Key", async () => {
    const { ledger, claims } = countingLedger();
    expect(sendNoticeSmsOp.reads).toBeUndefined();
    await dispatch(sendNoticeSmsOp, { user_id: "usr_1", text: "hello" }, ledger);
    expect(claims).toHaveLength(1);
    await dispatch(isOperatorOp, isOperator, ledger, { idempotencyKey: "key-1" });
    expect(claims).toHaveLength(2);
  });
});
