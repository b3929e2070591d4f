import { expect } from "vitest";

/**
 * The property every fuzzed request must keep: no 5xx, and any 4xx in the API's error shape
 * (a code and the request id), whatever was sent.
 */
export function expectNo5xx(reply: { statusCode: number; body: string }, what: unknown): void {
  expect(reply.statusCode, JSON.stringify(what)).toBeLessThan(500);
  if (reply.statusCode >= 400) {
    const body = JSON.parse(reply.body);
    expect(typeof body.error?.code, reply.body).toBe("string");
    expect(typeof body.error?.request_id).toBe("string");
  }
}
