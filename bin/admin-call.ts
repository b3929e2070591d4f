import type { Operation, RequestOf, ResponseOf } from "@payrail/contracts";

/** An admin call to a service, as the CLI makes it (over the bus, or a running gateway's admin routes). */
export type AdminCall = <O extends Operation>(op: O, payload: RequestOf<O>) => Promise<ResponseOf<O>>;
