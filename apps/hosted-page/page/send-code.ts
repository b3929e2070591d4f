import { api, ApiError } from "./api.ts";

/** Send Code: texts a new six-digit code to the phone (the old one stops working). */
export function sendCode(phone: string): Promise<unknown> {
  return api("POST", "/api/verify_user/send_code", {}, { phone });
}

/** What to tell the consumer when Send Code refused. */
export function phoneErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return "Something went wrong. Try again.";
  if (err.code === "invalid_phone_number" || err.status === 400) return "That is not a valid mobile number. Check it and try again.";
  if (err.status === 429) return `Too many codes were sent to this number. Try again in ${err.retryAfter ?? 30} seconds.`;
  return err.message;
}
