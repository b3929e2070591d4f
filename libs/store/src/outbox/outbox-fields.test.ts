import { describe, expect, it } from "vitest";
import { insertWithEvents } from "./outbox-fields.ts";

const created = { id: "evt_1", type: "order.created", created_at: "2026-11-30T10:00:01.000Z" };
const audited = { id: "evt_2", type: "audit.order", created_at: "2026-11-30T10:00:00.000Z" };

describe("insertWithEvents", () => {
  it("copies the document with its fields first, then the outbox, and leaves the document as it was", () => {
    const doc = { _id: "o1", status: "open", version: 1 };
    const stored = insertWithEvents(doc, [created, audited]);
    expect(Object.keys(stored)).toEqual(["_id", "status", "version", "outboxPending", "outboxAt", "_outbox"]);
    expect(stored).toEqual({ ...doc, outboxPending: true, outboxAt: audited.created_at, _outbox: { evt_1: created, evt_2: audited } });
    expect(doc).toEqual({ _id: "o1", status: "open", version: 1 });
    expect(insertWithEvents(doc, [])).toBe(doc);
  });

  it("keeps a document's own __proto__ key a field, not the copy's prototype", () => {
    const doc = JSON.parse('{"_id":"o2","__proto__":{"polluted":true}}') as { _id: string };
    const stored = insertWithEvents(doc, [created]);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect((stored as unknown as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(JSON.parse(JSON.stringify(stored))).toEqual(JSON.parse('{"_id":"o2","__proto__":{"polluted":true},"outboxPending":true,"outboxAt":"2026-11-30T10:00:01.000Z","_outbox":{"evt_1":{"id":"evt_1","type":"order.created","created_at":"2026-11-30T10:00:01.000Z"}}}'));
  });

  it("refuses an event id that cannot be a field name", () => {
    expect(() => insertWithEvents({ _id: "o3" }, [{ ...created, id: "evt.1" }])).toThrow(/cannot be a field name/);
  });
});
