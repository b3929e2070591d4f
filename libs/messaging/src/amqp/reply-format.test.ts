import { describe, expect, it, vi } from "vitest";
import { AppError } from "@payrail/contracts";
import { createLogger } from "@payrail/runtime";
import { JsonText } from "../rpc/json-text.ts";
import { decodeReplyMessage, encodeReplyMessage } from "./reply-format.ts";

const logger = createLogger({ level: "silent" });
const data = { id: "chk_1", amounts: { total: "10.50" }, items: [{ name: "é ✓", quantity: 2 }], transfer: null };

describe("reply format on RabbitMQ", () => {
  it("writes a success as the envelope JSON.stringify would give, and reads its data back", () => {
    const { body, type } = encodeReplyMessage({ ok: true, data }, logger);
    expect(body.toString()).toBe(JSON.stringify({ ok: true, data }));
    expect(decodeReplyMessage(body, type, false, undefined)).toEqual(data);
  });

  it("hands the data's own JSON text to a caller that asked for it, parsing nothing", () => {
    const { body, type } = encodeReplyMessage({ ok: true, data }, logger);
    const answer = decodeReplyMessage(body, type, true, undefined);
    expect(answer).toBeInstanceOf(JsonText);
    expect((answer as JsonText).bytes.toString()).toBe(JSON.stringify(data));
    expect(JSON.stringify({ wrapped: answer })).toBe(JSON.stringify({ wrapped: data }));
  });

  it("marks a replayed success and tells the caller", () => {
    const { body, type } = encodeReplyMessage({ ok: true, data, replayed: true }, logger);
    expect(JSON.parse(body.toString())).toEqual({ ok: true, replayed: true, data });
    const onReplayed = vi.fn();
    expect((decodeReplyMessage(body, type, true, onReplayed) as JsonText).bytes.toString()).toBe(JSON.stringify(data));
    expect(onReplayed).toHaveBeenCalledOnce();
  });

  it("answers null for a value JSON cannot hold, and internal_error for one it cannot encode", () => {
    const none = encodeReplyMessage({ ok: true, data: undefined }, logger);
    expect(decodeReplyMessage(none.body, none.type, false, undefined)).toBeNull();
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    const bad = encodeReplyMessage({ ok: true, data: cyclic }, logger);
    expect(() => decodeReplyMessage(bad.body, bad.type, true, undefined)).toThrow(AppError);
  });

  it("throws a business error as its AppError", () => {
    const { body, type } = encodeReplyMessage({ ok: false, error: { code: "checkout_not_found", message: "no such checkout" } }, logger);
    expect(type).toBeUndefined();
    expect(() => decodeReplyMessage(body, type, true, undefined)).toThrow(expect.objectContaining({ code: "checkout_not_found" }));
  });

  it("reads the replies of a server that does not mark them (any key order), and a marked one too short to be one", () => {
    const onReplayed = vi.fn();
    const older = Buffer.from(JSON.stringify({ ok: true, data, replayed: true }));
    expect(decodeReplyMessage(older, undefined, true, onReplayed)).toEqual(data);
    expect(onReplayed).toHaveBeenCalledOnce();
    expect(() => decodeReplyMessage(Buffer.from("{}"), "ok", false, undefined)).toThrow(AppError);
  });
});
