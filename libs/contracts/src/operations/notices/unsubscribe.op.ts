import { z } from "zod";
import { NoticeChannel } from "../../http/notices.schema.ts";
import { defineOperation } from "../../rpc/operation.ts";

/** An unsubscribe link's token: signed by the notices service, naming the merchant, the consumer and the channel. */
export const UnsubscribeToken = z.string().min(16).max(512).regex(/^[A-Za-z0-9_.-]+$/, "must be an unsubscribe token");

/**
 * The consumer stops a merchant's optional notices (receipts, reminders of unchanged renewals)
 * on one channel, by the token of an unsubscribe link: no sign-in, the token is the proof
 * (docs/decisions/0009-consumer-notices.md). `confirm: false` only reads what the link would
 * stop (the confirm page); `true` records the opt-out (one conditional write; again, the same
 * answer). A token that is not one Payrail signed is 400 `parameter_invalid` naming `token`.
 */
export const unsubscribeOp = defineOperation(
  "notices.unsubscribe",
  z.object({ token: UnsubscribeToken, confirm: z.boolean() }),
  z.object({ merchant_name: z.string(), channel: NoticeChannel, unsubscribed: z.boolean() }),
);
