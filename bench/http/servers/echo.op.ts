import { z } from "zod";
import { defineOperation } from "@payrail/contracts";

/** The ceiling's one RPC: the service answers with what it got. */
export const echoOp = defineOperation("bench.echo", z.object({ n: z.number() }), z.object({ n: z.number() }));

/** A fixed prefix: reruns reuse one durable queue instead of leaving a new one behind. */
export const ECHO_QUEUE_PREFIX = "payrail-bench-http.";
