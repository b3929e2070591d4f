import { z } from "zod";
import { MessageResponse } from "../../http/consumer.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/**
 * Logout: revokes the auth token that authenticated the call (the user principal's
 * `tokenId`). Revoking a revoked token again answers the same.
 */
export const logoutOp = defineOperation("identity.logout", z.object({}), MessageResponse);
