import { describe, expect, it } from "vitest";
import { infraVariants } from "../../../test/support/infra.ts";
import { noticeStore, queuedNotice } from "./support/notice-fixtures.ts";

const variants = await infraVariants();

const sent = (at: string) => ({ status: "sent" as const, attempts: 1, dueAt: at, lastError: null, providerMessageId: "m1", sentAt: at });

/** The claims and writes that keep one notice from being sent by two workers at once, or marked sent twice. */
describe.each(variants)("notice claims on $name", (variant) => {
  const fixture = noticeStore(variant);

  describe.skipIf(!!variant.skipReason)("claims", () => {
    it("writes a notice once per cause: the same event and channel insert nothing the second time", async () => {
      const notices = fixture.notices();
      const doc = queuedNotice("evt_once", "2026-01-01T00:00:00.000Z", { optional: true });
      expect(await notices.insert(doc)).toBe(true);
      expect(await notices.insert({ ...doc, body: "another rendering" })).toBe(false);
      expect((await notices.find(doc._id))?.body).toBe("Paid");
    });

    it("lets one of 10 racing workers claim a due notice, and only that one mark it sent, once", async () => {
      const notices = fixture.notices();
      const doc = queuedNotice("evt_race", "2026-01-01T00:00:00.000Z", { optional: true });
      await notices.insert(doc);
      const [seen] = await notices.due("2026-01-01T00:00:01.000Z", 100).then((d) => d.filter((n) => n._id === doc._id));
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => notices.claim(seen!, `lease_${i}`, "2026-01-01T00:00:31.000Z")));
      const winners = claims.map((c, i) => (c ? i : -1)).filter((i) => i >= 0);
      expect(winners).toHaveLength(1);
      const loser = winners[0] === 0 ? 1 : 0;
      expect(await notices.finish(doc._id, `lease_${loser}`, sent("2026-01-01T00:00:02.000Z"))).toBeNull();
      expect(await notices.finish(doc._id, `lease_${winners[0]}`, sent("2026-01-01T00:00:02.000Z"))).not.toBeNull();
      // Marked sent once: the same claim's second write (a repeat after a crash) changes nothing.
      expect(await notices.finish(doc._id, `lease_${winners[0]}`, sent("2026-01-01T00:00:09.000Z"))).toBeNull();
      expect(await notices.find(doc._id)).toMatchObject({ status: "sent", sentAt: "2026-01-01T00:00:02.000Z", leaseId: null });
      expect((await notices.due("2026-02-01T00:00:00.000Z", 100)).map((n) => n._id)).not.toContain(doc._id);
    });

    it("gives a dead worker's notice to another once its lease has run out, and the dead one can no longer write", async () => {
      const notices = fixture.notices();
      const doc = queuedNotice("evt_dead", "2026-01-01T00:00:00.000Z", { optional: true });
      await notices.insert(doc);
      expect(await notices.claim(doc, "lease_dead", "2026-01-01T00:00:30.000Z")).not.toBeNull();
      expect((await notices.due("2026-01-01T00:00:10.000Z", 100)).map((n) => n._id)).not.toContain(doc._id);
      const [again] = (await notices.due("2026-01-01T00:00:31.000Z", 100)).filter((n) => n._id === doc._id);
      expect(await notices.claim(again!, "lease_next", "2026-01-01T00:01:01.000Z")).not.toBeNull();
      expect(await notices.renew(doc._id, "lease_dead", "2026-01-01T00:02:00.000Z")).toBe(false);
      expect(await notices.finish(doc._id, "lease_dead", sent("2026-01-01T00:00:40.000Z"))).toBeNull();
      expect(await notices.finish(doc._id, "lease_next", sent("2026-01-01T00:00:41.000Z"))).not.toBeNull();
    });
  });
});
