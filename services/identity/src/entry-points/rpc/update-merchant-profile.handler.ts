import { updateMerchantProfileOp } from "@payrail/contracts";
import { handle } from "@payrail/messaging";
import { updateMerchantProfile } from "../../domain/update-merchant-profile.use-case.ts";
import type { IdentityDeps } from "./deps.ts";

export const updateMerchantProfileHandler = (deps: IdentityDeps) =>
  handle(updateMerchantProfileOp, (payload, ctx) => updateMerchantProfile(deps, ctx, payload));
