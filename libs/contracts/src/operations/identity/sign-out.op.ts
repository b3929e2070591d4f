import { z } from "zod";
import { defineOperation } from "../../rpc/operation.ts";

/** Revokes the dashboard session with this token (idempotent: an unknown one is revoked already). */
export const signOutOp = defineOperation(
  "identity.signOut",
  z.object({ session_token: z.string().min(1).max(128) }),
  z.object({ signed_out: z.literal(true) }),
);
