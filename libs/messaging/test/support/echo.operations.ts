import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { AppError, defineOperation, Principal } from "@payrail/contracts";
import { handle, type CallContext, type HandlerEntry } from "../../src/index.ts";

/** Test operations of a made-up `echo` service. */
export const sayEcho = defineOperation(
  "echo.say",
  z.object({ text: z.string().min(1), delayMs: z.number().int().min(0).default(0), nested: z.object({ amount: z.number().int() }).optional() }),
  z.object({ text: z.string(), instance: z.string(), requestId: z.string(), principal: Principal, delayMs: z.number() }),
);

export const failEcho = defineOperation("echo.fail", z.object({ mode: z.enum(["app", "crash"]) }), z.null());

/** Served by nobody in any test. */
export const pingNobody = defineOperation("nobody.ping", z.object({}), z.null());

/**
 * The `echo` service's handlers, tagged with the instance that answered. `ran`, when given,
 * receives the text of every `echo.say` whose handler started (to prove one did not).
 */
export function echoHandlers(instance: string, ran?: string[]): HandlerEntry[] {
  return [
    handle(sayEcho, async (payload, ctx) => {
      ran?.push(payload.text);
      if (payload.delayMs > 0) await sleep(payload.delayMs);
      return { text: payload.text, instance, requestId: ctx.requestId, principal: ctx.principal, delayMs: payload.delayMs };
    }),
    handle(failEcho, async ({ mode }) => {
      if (mode === "app") throw new AppError("checkout_closed", "Checkout is closed", { param: "checkout_id" });
      throw new Error("db password hunter2 rejected");
    }),
  ];
}

export const anonymousCtx: CallContext = { requestId: "req_test", principal: { kind: "anonymous" } };
