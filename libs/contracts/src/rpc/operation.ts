import type { z } from "zod";

/**
 * One RPC operation: its pattern (`<service>.<verbNoun>`) and the schemas of its request
 * payload and response data. The server validates requests against `request`; clients and
 * contract tests can check replies against `response`.
 */
export interface Operation<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly pattern: string;
  readonly service: string;
  readonly request: Req;
  readonly response: Res;
  /**
   * The operation changes nothing: running it again answers what is true at that moment, and
   * no more can be asked of a repeat. A serving process's reply ledger stays out of it (two
   * writes and a sealed reply fewer a call on its own account), but for an Idempotency-Key.
   */
  readonly reads?: true;
}

export type RequestOf<O extends Operation> = z.input<O["request"]>;
export type ParsedRequestOf<O extends Operation> = z.output<O["request"]>;
export type ResponseOf<O extends Operation> = z.output<O["response"]>;

export function defineOperation<Req extends z.ZodType, Res extends z.ZodType>(
  pattern: `${string}.${string}`,
  request: Req,
  response: Res,
  options: { reads?: boolean } = {},
): Operation<Req, Res> {
  const service = pattern.slice(0, pattern.indexOf("."));
  return { pattern, service, request, response, ...(options.reads ? { reads: true as const } : {}) };
}

/** The queue a service consumes its RPC requests from (one durable queue per service). */
export function rpcQueueOf(service: string): string {
  return `${service}.rpc`;
}
