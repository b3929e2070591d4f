import { describe, expect, it, vi } from "vitest";
import type { DomainEvent } from "@payrail/contracts";
import { EventCannotApply, type DeadLetteredEvent, type Transport } from "../../src/index.ts";
import { freshWorldPerTest } from "./fresh-world.ts";
import { IdempotentSubscriber } from "./idempotent-subscriber.ts";
import { sampleEvent, sampleEvents } from "./sample-events.ts";

/** The services the suite subscribes (a world cleans up after exactly these). */
export const EVENT_TEST_SERVICES = ["ledger", "mailer"];

/** Short backoffs for tests: the steps (and so the RabbitMQ retry tiers) the suite declares. */
export const TEST_RETRY = {
  growing: { firstDelayMs: 100, maxDelayMs: 400 },
  quick: { firstDelayMs: 50, maxDelayMs: 50 },
  outage: { firstDelayMs: 100, maxDelayMs: 1_000 },
} as const;

/** One isolated "network" for events (a broker with a fresh prefix, or a fresh bus). */
export interface EventsWorld {
  /** A new transport on this world: a process of its own, as far as the test knows. */
  transport(): Promise<Transport>;
  /** What `service`'s dead-letter queue holds. */
  deadLetters(service: string): Promise<DeadLetteredEvent[]>;
  /** Closes every transport made here and removes what the world left behind. */
  dispose(): Promise<void>;
}

/** Bounded polls: long enough for a thousand events on a busy two-core box, never a fixed sleep. */
export const SLOW = { timeout: 20_000, interval: 20 };

function idsOf(events: DomainEvent[]): string[] {
  return events.map((e) => e.id).sort();
}

/**
 * Publish/subscribe semantics every Transport must share: asynchronous, at least once, one
 * queue per subscribing service shared by its replicas, bounded retries, then a dead letter.
 */
export function describeEventsContract(name: string, createWorld: () => Promise<EventsWorld>): void {
  describe(`domain events over ${name}`, () => {
    const world = freshWorldPerTest(createWorld);

    it("delivers each event to every service bound to its type, after publish() and not inside it", async () => {
      const ledger = new IdempotentSubscriber();
      const mailer = new IdempotentSubscriber();
      const ledgerSide = await world().transport();
      await ledgerSide.subscribe("ledger", ["refund.*"], ledger.handler());
      const mailerSide = await world().transport();
      await mailerSide.subscribe("mailer", ["refund.approved", "transaction.*"], mailer.handler());
      const publisher = await world().transport();
      const [requested, approved, completed, created] = (["refund.requested", "refund.approved", "transaction.completed", "checkout.created"] as const).map(sampleEvent);

      const publishing = publisher.publish(requested!);
      expect(ledger.deliveries).toBe(0); // nothing ran inside the publisher's call
      await publishing;
      for (const event of [approved!, completed!, created!]) await publisher.publish(event); // created: bound to nobody

      await vi.waitFor(() => expect(ledger.effects.length + mailer.effects.length).toBe(4), SLOW);
      expect(ledger.effects.sort()).toEqual(idsOf([requested!, approved!]));
      expect(mailer.effects.sort()).toEqual(idsOf([approved!, completed!]));
      expect(publisher.stats().events.published).toEqual({ "refund.requested": 1, "refund.approved": 1, "transaction.completed": 1, "checkout.created": 1 });
      expect(ledgerSide.stats().events.consumed).toEqual({ "refund.requested": 1, "refund.approved": 1 });
      expect(mailerSide.stats().events.consumed).toEqual({ "refund.approved": 1, "transaction.completed": 1 });
    });

    it("keeps a stopped service's events: 1,000 published while it is down are each applied once when it returns", async () => {
      const ledger = new IdempotentSubscriber();
      const before = await world().transport();
      await before.subscribe("ledger", ["refund.requested"], ledger.handler("before"));
      await before.close();

      const publisher = await world().transport();
      const events = sampleEvents(1_000);
      await Promise.all(events.map((event) => publisher.publish(event)));
      expect(publisher.stats().events.published).toEqual({ "refund.requested": 1_000 });
      expect(ledger.deliveries).toBe(0);

      const after = await world().transport();
      await after.subscribe("ledger", ["refund.requested"], ledger.handler("after"));
      await vi.waitFor(() => expect(ledger.processed.size).toBe(1_000), SLOW);
      expect(ledger.effects.sort()).toEqual(idsOf(events));
      expect(ledger.deliveriesByReplica.get("before")).toBeUndefined();
    });

    it("shares each service's queue between its two replicas: every event applied once per service", async () => {
      const services = { ledger: new IdempotentSubscriber({ delayMs: 1 }), mailer: new IdempotentSubscriber({ delayMs: 1 }) };
      for (const [service, subscriber] of Object.entries(services)) {
        for (const replica of ["a", "b"]) await (await world().transport()).subscribe(service, ["refund.*"], subscriber.handler(replica), { prefetch: 5 });
      }
      const publisher = await world().transport();
      const events = sampleEvents(400, "refund.approved");
      await Promise.all(events.map((event) => publisher.publish(event)));

      for (const subscriber of Object.values(services)) {
        await vi.waitFor(() => expect(subscriber.processed.size).toBe(400), SLOW);
        expect(subscriber.effects.sort()).toEqual(idsOf(events));
        expect(subscriber.deliveries).toBe(400); // no fault, so no redelivery: each went to one replica
        expect(subscriber.deliveriesByReplica.get("a")).toBeGreaterThan(0);
        expect(subscriber.deliveriesByReplica.get("b")).toBeGreaterThan(0);
      }
    });

    it("loses nothing when a replica stops mid-stream: the other one applies the rest", async () => {
      const ledger = new IdempotentSubscriber({ delayMs: 3 });
      const leaving = await world().transport();
      await leaving.subscribe("ledger", ["refund.*"], ledger.handler("leaving"), { prefetch: 10 });
      await (await world().transport()).subscribe("ledger", ["refund.*"], ledger.handler("staying"), { prefetch: 10 });
      const publisher = await world().transport();
      const events = sampleEvents(300);
      await Promise.all(events.map((event) => publisher.publish(event)));

      await vi.waitFor(() => expect(ledger.processed.size).toBeGreaterThan(30), SLOW);
      await leaving.close();
      await vi.waitFor(() => expect(ledger.processed.size).toBe(300), SLOW);
      expect(ledger.effects.sort()).toEqual(idsOf(events));
    });

    it("retries a failed event with growing waits and applies it once the handler succeeds", async () => {
      const ledger = new IdempotentSubscriber({ failWhen: (_event, { attempt }) => attempt < 4 });
      const subscriberSide = await world().transport();
      await subscriberSide.subscribe("ledger", ["refund.requested"], ledger.handler(), { retry: TEST_RETRY.growing });
      const event = sampleEvent();
      await (await world().transport()).publish(event);

      await vi.waitFor(() => expect(ledger.effects).toEqual([event.id]), SLOW);
      expect(ledger.attemptsById.get(event.id)).toEqual([1, 2, 3, 4]);
      const [first, second, third, fourth] = ledger.startedAtById.get(event.id) ?? [];
      // Steps of 100, 200, 400 ms, each jittered down by at most 20 % (timers may fire a few ms early).
      expect(second! - first!).toBeGreaterThanOrEqual(75);
      expect(third! - second!).toBeGreaterThanOrEqual(155);
      expect(fourth! - third!).toBeGreaterThanOrEqual(315);
      expect(subscriberSide.stats().events).toMatchObject({ retried: { "refund.requested": 3 }, consumed: { "refund.requested": 1 }, deadLettered: {} });
      expect(await world().deadLetters("ledger")).toEqual([]);
    });

    it("rides out 10 s of failures (a database failover) and applies the event: nothing dead-lettered", async () => {
      const failingUntil = Date.now() + 10_000;
      const ledger = new IdempotentSubscriber({ failWhen: () => Date.now() < failingUntil });
      const subscriberSide = await world().transport();
      await subscriberSide.subscribe("ledger", ["refund.*"], ledger.handler(), { retry: TEST_RETRY.outage });
      const publisher = await world().transport();
      const events = sampleEvents(20);
      for (const event of events) await publisher.publish(event);

      await vi.waitFor(() => expect(ledger.processed.size).toBe(20), { timeout: 30_000, interval: 50 });
      expect(Math.max(...ledger.startedAtById.get(events[0]!.id)!)).toBeGreaterThanOrEqual(failingUntil);
      expect(ledger.effects.sort()).toEqual(idsOf(events));
      expect(await world().deadLetters("ledger")).toEqual([]);
      expect(subscriberSide.stats().events.deadLettered).toEqual({});
    }, 40_000);

    it("dead-letters at once an event its handler says can never apply, while the others flow past it", async () => {
      const poison = sampleEvent();
      const ledger = new IdempotentSubscriber({ failWhen: (event) => event.id === poison.id, cannotApply: true });
      const subscriberSide = await world().transport();
      // prefetch 1: were the poison event requeued in place, nothing else could get through.
      await subscriberSide.subscribe("ledger", ["refund.requested"], ledger.handler(), { retry: TEST_RETRY.quick, prefetch: 1 });
      const publisher = await world().transport();
      const others = sampleEvents(50);
      await publisher.publish(poison);
      for (const event of others) await publisher.publish(event);

      await vi.waitFor(async () => expect(await world().deadLetters("ledger")).toHaveLength(1), SLOW);
      await vi.waitFor(() => expect(ledger.processed.size).toBe(50), SLOW);
      expect(ledger.effects.sort()).toEqual(idsOf(others));
      expect(ledger.attemptsById.get(poison.id)).toEqual([1]);
      const [letter] = await world().deadLetters("ledger");
      expect(letter).toMatchObject({ id: poison.id, type: "refund.requested", attempts: 1, reason: `cannot apply ${poison.id}: the ledger rejected it` });
      expect(JSON.parse(letter!.body)).toEqual(poison);
      expect(subscriberSide.stats().events).toEqual({
        published: {},
        consumed: { "refund.requested": 50 },
        retried: {},
        deadLettered: { "refund.requested": 1 },
        deadLetteredBy: [{ service: "ledger", cause: "cannot_apply", count: 1 }],
      });
    });

    it("dead-letters an event still failing when its retry window runs out", async () => {
      const ledger = new IdempotentSubscriber({ failWhen: () => true });
      const subscriberSide = await world().transport();
      await subscriberSide.subscribe("ledger", ["refund.requested"], ledger.handler(), { retry: { ...TEST_RETRY.quick, retryForMs: 400 } });
      const event = sampleEvent();
      await (await world().transport()).publish(event);

      await vi.waitFor(async () => expect(await world().deadLetters("ledger")).toHaveLength(1), SLOW);
      const [letter] = await world().deadLetters("ledger");
      const attempts = ledger.attemptsById.get(event.id) ?? [];
      expect(attempts.length).toBeGreaterThanOrEqual(4); // ~50 ms apart for 400 ms
      expect(letter).toMatchObject({ id: event.id, attempts: attempts.length, reason: expect.stringMatching(/^retried for \d+ s: cannot apply/) });
      expect(subscriberSide.stats().events.deadLetteredBy).toEqual([{ service: "ledger", cause: "retry_expired", count: 1 }]);
    });

    it("refuses an event that breaks its type's schema, a pattern that matches no type, and a second subscription", async () => {
      const transport = await world().transport();
      const broken = { ...sampleEvent("refund.approved"), data: { object: { id: "rfd_1" } } };
      await expect(transport.publish(broken)).rejects.toThrow(/not a valid refund.approved event: data\.object\.id/);
      // An outbox relay tells it apart from a broker outage: no retry can publish it.
      await expect(transport.publish(broken)).rejects.toBeInstanceOf(EventCannotApply);
      await expect(transport.subscribe("ledger", ["refunds.*"], async () => undefined)).rejects.toThrow(/matches no event type/);
      await transport.subscribe("ledger", ["refund.*"], async () => undefined);
      await expect(transport.subscribe("ledger", ["transaction.*"], async () => undefined)).rejects.toThrow(/already subscribes/);
      expect(transport.stats().events.published).toEqual({});
    });
  });
}
