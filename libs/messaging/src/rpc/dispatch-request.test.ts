import { ANONYMOUS, resolveApiKeyOp } from "@payrail/contracts";
import { silentLogger } from "@payrail/runtime";
import { describe, expect, it } from "vitest";
import { dispatchRequest } from "./dispatch-request.ts";
import { encodeRequest } from "./encode-request.ts";
import { ExpiredRequests } from "./expired-requests.ts";
import { createHandlerTable } from "./handler-table.ts";

/** libs/store's error, recreated by name: libs/messaging does not import libs/store. */
class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

const run = async (handler: () => Promise<unknown>) => {
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
