import { listMerchantsOp, requireAdmin } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { listMerchants } from "../../domain/list-merchants.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const listMerchantsHandler = (deps: IdentityDeps) =>
  handle(listMerchantsOp, (payload, ctx) => {
    requireAdmin(ctx.principal);
    return listMerchants(deps, payload.limit);
  });
