import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  form: Record<string, string>;
}

export type FakeAnswer = { status: number; body: unknown; raw?: boolean };

/**
 * A local HTTP server that answers like Twilio's Messages API
 * (`POST /2010-04-01/Accounts/{sid}/Messages.json`, form-encoded; 201 with the message
 * resource, or 4xx/5xx with `{code, message, more_info, status}`), so the official SDK's
 * whole request path runs against it. `answer` decides per request; the default is a 201.
 */
export async function startFakeTwilio(): Promise<{
  url: string;
  seen: SeenRequest[];
  setAnswer(fn: (req: SeenRequest) => FakeAnswer | undefined): void;
  close(): Promise<void>;
}> {
  const state = {
    seen: [] as SeenRequest[],
    answer: (() => undefined) as (req: SeenRequest) => FakeAnswer | undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const seen: SeenRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        authorization: req.headers.authorization,
        contentType: req.headers["content-type"],
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))),
      };
      state.seen.push(seen);
      const answer = state.answer(seen) ?? { status: 201, body: messageResource(seen) };
      res.writeHead(answer.status, { "content-type": answer.raw ? "text/html" : "application/json" });
      res.end(answer.raw ? String(answer.body) : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen: state.seen,
    setAnswer(fn) {
      state.answer = fn;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Twilio's error body (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
export function twilioError(status: number, code: number, message: string): FakeAnswer {
  return { status, body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

let sequence = 0;
function messageResource(req: SeenRequest): Record<string, unknown> {
  const accountSid = /Accounts\/([^/]+)\//.exec(req.path)?.[1] ?? "";
  const sid = `SM${(++sequence).toString(16).padStart(32, "0")}`;
  const now = new Date().toUTCString();
  return {
    account_sid: accountSid,
    api_version: "2010-04-01",
    body: req.form.Body,
    date_created: now,
    date_sent: null,
    date_updated: now,
    direction: "outbound-api",
    error_code: null,
    error_message: null,
    from: req.form.From ?? null,
    messaging_service_sid: req.form.MessagingServiceSid ?? null,
    num_media: "0",
    num_segments: "1",
    price: null,
    price_unit: "USD",
    sid,
    status: "queued",
    subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
    to: req.form.To,
    uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
  };
}
