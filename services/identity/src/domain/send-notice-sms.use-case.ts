import { AppError, requireService, type Principal } from "@payrail/contracts";
import type { SmsPort } from "./ports/sms.port.ts";
import type { UsersPort } from "./ports/users.port.ts";

/**
 * For the notices service only: a consumer notice to the user's verified phone, through the
 * same SMS provider as the codes (Twilio live; its STOP handling applies), so the number never
 * leaves identity. The provider's refusals come back as its AppErrors.
 */
export async function sendNoticeSms(deps: { users: UsersPort; sms: SmsPort }, principal: Principal, input: { user_id: string; text: string }) {
  requireService(principal);
  const user = await deps.users.findById(input.user_id);
  if (!user) throw new AppError("invalid_phone_number", "the consumer has no verified phone", { param: "user_id" });
  const { messageId } = await deps.sms.send(user.phone, input.text);
  return { message_id: messageId };
}
