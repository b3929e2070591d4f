import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventOf } from "@payrail/contracts";
import type { Store } from "@payrail/store";
import { infraVariants } from "../../../test/support/infra.ts";
import { AuditLogRepository } from "../src/data-access/audit-log.repository.ts";
import { recordAuditEntry } from "../src/domain/record-audit-entry.use-case.ts";

const variants = await infraVariants();
const hex = () => Array.from({ length: 32 }, () => "0123456789abcdef"[Math.floor(Math.random() * 16)]).join("");
const DAY = 86_400_000;

/** An audit entry's event as identity writes it, for `merchantId`, at `at`. */
function entryEvent(merchantId: string, at: string): EventOf<"audit_entry.identity"> {
  const id = hex();
  return {
    id: `evt_${id}`,
    type: "audit_entry.identity",
    created_at: at,
    merchant_id: merchantId,
    aggregate: { type: "audit_entry", id: `aud_${id}`, version: 1 },
    data: { object: { actor: { type: "admin", id: "admin" }, action: "api_key.created", object: { type: "api_key", id: "sk_test_12345678" }, ip_address: null } },
  };
}

/**
 * The ledger's audit log on each store (docs/decisions/0054-audit-log.md): an entry stored once
 * however often its event comes, and kept two years: the retention sweep deletes older entries.
 */
describe.each(variants)("the audit log's storage over $name", (variant) => {
  let store: Store;
  let now = Date.parse("2026-11-28T12:00:00.000Z");

  beforeAll(async () => {
    if (variant.skipReason) return;
    store = await variant.store();
    await new AuditLogRepository(store).ensureIndexes();
  });
  afterAll(() => variant.cleanup());

  it.skipIf(!!variant.skipReason)("stores an entry once when its event comes three times", async () => {
    const auditLog = new AuditLogRepository(store, { now: () => now });
    const merchant = `mer_${hex()}`;
    const event = entryEvent(merchant, new Date(now).toISOString());
    for (let i = 0; i < 3; i++) await recordAuditEntry({ auditLog }, event);
    const stored = await auditLog.list({ merchantId: merchant }, 10);
    expect(stored.map((e) => e._id)).toEqual([event.aggregate.id]);
    expect(stored[0]).toMatchObject({ merchantId: merchant, createdAt: event.created_at, action: "api_key.created", ipAddress: null });
  });

  it.skipIf(!!variant.skipReason)("keeps entries two years: the sweep deletes older ones and no younger one", async () => {
    const merchant = `mer_${hex()}`;
    const auditLog = new AuditLogRepository(store, { now: () => now });
    const ages = [3 * 365, 731, 729, 30, 0];
    for (const days of ages) await recordAuditEntry({ auditLog }, entryEvent(merchant, new Date(now - days * DAY).toISOString()));
    await auditLog.sweepNow();
    const kept = await auditLog.list({ merchantId: merchant }, 10);
    expect(kept.map((e) => Math.round((now - Date.parse(e.createdAt)) / DAY))).toEqual([0, 30, 729]);
    // A day later the 729-day entry is past two years too.
    now += 2 * DAY;
    await auditLog.sweepNow();
    expect((await auditLog.list({ merchantId: merchant }, 10)).length).toBe(2);
  });
});
