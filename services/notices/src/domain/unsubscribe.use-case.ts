import { AppError } from "@payrail/contracts";
import type { ContactsPort } from "./ports/contacts.port.ts";
import type { OptOutsPort } from "./ports/opt-outs.port.ts";
import { verifyUnsubscribeToken } from "./unsubscribe-token.ts";

export interface UnsubscribeDeps {
  optOuts: OptOutsPort;
  contacts: Pick<ContactsPort, "noticeContacts">;
  /** The key unsubscribe tokens are signed with. */
  unsubscribeKey: Buffer;
  now(): Date;
}

/**
 * An unsubscribe link followed: the token names the merchant, the consumer and the channel, and
 * only a token this service signed is taken (a changed or made-up one is 400, whoever sends it).
 * `confirm` records the opt-out in one conditional write; its notices that are optional
 * (receipts, reminders of unchanged renewals) are then not sent to that consumer by that
 * merchant on that channel. The answer names the merchant for the page.
 */
export async function unsubscribe(deps: UnsubscribeDeps, input: { token: string; confirm: boolean }) {
  const key = verifyUnsubscribeToken(deps.unsubscribeKey, input.token);
  if (!key) throw new AppError("parameter_invalid", "this unsubscribe link is not valid", { param: "token" });
  const { merchant } = await deps.contacts.noticeContacts(key.merchantId, key.userId);
  const unsubscribed = input.confirm ? (await deps.optOuts.add(key, deps.now().toISOString()), true) : await deps.optOuts.has(key);
  return { merchant_name: merchant.name, channel: key.channel, unsubscribed };
}
