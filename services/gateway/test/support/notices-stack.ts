import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { Transport } from "@payrail/messaging";
import * as notices from "@payrail/notices";
import { silentLogger } from "@payrail/runtime";
import { eventually } from "../../../../test/support/eventually.ts";
import type { InfraVariant } from "../../../../test/support/infra.ts";
import type { Mailpit } from "../../../../test/support/mailpit.ts";
import { startStack, type Stack } from "../../../../test/support/stack.ts";
import { tcpGate } from "../../../../test/support/tcp-gate.ts";

import type { SandboxNotice } from "@payrail/contracts";

export type { SandboxNotice };

/** A fresh address per test, so Mailpit's search finds only this test's messages. */
export const freshEmail = (tag: string) => `${tag}.${Math.random().toString(36).slice(2, 10)}@example.com`;

export interface NoticesStack {
  stack: Stack;
  merchant: { id: string; apiKey: string };
  noticesTransport: Transport;
  /** Between the notices service and Mailpit's SMTP port (close it to take SMTP down); undefined without Mailpit. */
  gate: Awaited<ReturnType<typeof tcpGate>> | undefined;
  headers(): Record<string, string>;
  post(url: string, payload: object, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The checkout's notices in the sandbox outbox, newest first. */
  outbox(checkoutId: string): Promise<SandboxNotice[]>;
  /** Waits until the checkout's notices are these (`type/channel`) and none is queued, then answers them. */
  settled(checkoutId: string, expected: string[]): Promise<SandboxNotice[]>;
  close(): Promise<void>;
}

/**
 * The stack, and the notices service beside it on the variant's bus and store (its SMTP through a
 * gate to Mailpit when Mailpit runs), with a merchant "Acme & <Sons>" whose profile names its
 * support: what the consumer-notice suites share.
 */
export async function startNoticesStack(variant: InfraVariant, mailpit: Mailpit): Promise<NoticesStack> {
  const stack = await startStack(variant);
  let gate: NoticesStack["gate"];
  if (mailpit.smtpUrl) {
    const smtp = new URL(mailpit.smtpUrl);
    gate = await tcpGate({ host: smtp.hostname, port: Number(smtp.port) });
  }
  const noticesTransport = await variant.transport();
  const service = await notices.start({
    transport: noticesTransport,
    store: await variant.store(),
    logger: silentLogger(),
    smtpUrl: gate ? `smtp://127.0.0.1:${gate.port()}` : undefined,
    publicUrl: "https://pay.example",
    policy: { retryScheduleMs: Array<number>(120).fill(250), leaseMs: 2_000 },
    worker: { pollMs: 100 },
    subscribe: { retry: { firstDelayMs: 100, maxDelayMs: 500 } },
  });
  const merchant = await stack.merchant("Acme & <Sons>");
  const headers = () => ({ "api-key": merchant.apiKey });
  const profile = await stack.app.inject({
    method: "PATCH",
    url: "/api/merchants/profile",
    payload: { support_email: "help@acme.example", support_phone: "+15555550199" },
    headers: headers(),
  });
  expect(profile.statusCode, profile.body).toBe(200);
  const outbox = async (checkoutId: string): Promise<SandboxNotice[]> => {
    const reply = await stack.app.inject({ url: `/api/sandbox/notices?checkout_id=${checkoutId}&limit=100`, headers: headers() });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json().data;
  };
  return {
    stack,
    merchant,
    noticesTransport,
    gate,
    headers,
    post: (url, payload, h = headers()) => stack.app.inject({ method: "POST", url, payload, headers: h }),
    outbox,
    settled: (checkoutId, expected) =>
      eventually(async () => {
        const list = await outbox(checkoutId);
        expect(list.map((n) => `${n.type}/${n.channel}`).sort()).toEqual([...expected].sort());
        expect(list.filter((n) => n.status === "queued")).toEqual([]);
        return list;
      }),
    async close() {
      await service.stop();
      await gate?.close();
      await stack.close();
    },
  };
}
