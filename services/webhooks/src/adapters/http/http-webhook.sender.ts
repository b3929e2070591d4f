import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import type { SendResult, WebhookSenderPort } from "../../domain/ports/webhook-sender.port.ts";
import { addressAllowed } from "./address-policy.ts";
import { guardedLookup, hostOf } from "./guarded-lookup.ts";

/** Of a response body, at most this much is read (docs/api-notes.md, Events and webhooks: up to 64 KiB); the rest is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends webhooks with node's http(s) client: no redirects followed (a 3xx is a failure), one
 * deadline for connecting, sending and reading, the response body read up to 64 KiB, and the
 * address policy applied to the addresses actually connected to; the answer says whether its
 * peer was a public address.
 */
export class HttpWebhookSender implements WebhookSenderPort {
  send(req: { url: string; headers: Record<string, string>; body: string; timeoutMs: number; publicOnly: boolean }): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      // The request, once made: the deadline below may fire before or after.
      const pending: { request?: ClientRequest } = {};
      const timer = setTimeout(() => {
        fail(`timed out after ${req.timeoutMs} ms`);
        pending.request?.destroy();
      }, req.timeoutMs);
      const done = (result: Omit<SendResult, "durationMs">) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const fail = (error: string) => done({ httpStatus: null, responseBody: null, fromPublicAddress: false, error });
      const url = new URL(req.url);
      const host = hostOf(url);
      if (isIP(host) && !addressAllowed(host, req.publicOnly)) return fail(`${host} is an address webhooks may not be sent to`);
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const body = Buffer.from(req.body, "utf8");
      const outgoing = send(url, {
        method: "POST",
        headers: { ...req.headers, "content-length": String(body.length) },
        lookup: guardedLookup(req.publicOnly),
        agent: false,
      });
      pending.request = outgoing;
      outgoing.on("error", (err) => fail(err.message));
      outgoing.on("response", (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        // The address actually connected to, whatever the name resolved to before.
        const peer = res.socket.remoteAddress;
        const fromPublicAddress = peer !== undefined && addressAllowed(peer, true);
        const finish = () => done({ httpStatus: res.statusCode ?? null, responseBody: Buffer.concat(chunks).toString("utf8"), fromPublicAddress, error: null });
        res.on("data", (chunk: Buffer) => {
          const room = MAX_RESPONSE_BYTES - size;
          chunks.push(chunk.subarray(0, room));
          size += Math.min(room, chunk.length);
          if (size >= MAX_RESPONSE_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on("end", finish);
        res.on("error", (err) => fail(err.message));
      });
      outgoing.end(body);
    });
  }
}
