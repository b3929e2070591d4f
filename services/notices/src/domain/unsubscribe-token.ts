import { createHmac, timingSafeEqual } from "node:crypto";
import type { NoticeChannel } from "@payrail/contracts";

/** Whose optional notices on which channel an unsubscribe link stops. */
export interface OptOutKey {
  merchantId: string;
  userId: string;
  channel: NoticeChannel;
}

const VERSION = "u1";

/**
 * An unsubscribe link's token: `u1.<payload>.<HMAC-SHA256>`, base64url, the payload naming the
 * merchant, the consumer and the channel. Unguessable without the key, and no part of it can be
 * changed (another merchant, another consumer) without breaking the signature. It never expires:
 * an old email's link keeps working, as RFC 8058 expects.
 */
export function signUnsubscribeToken(key: Buffer, who: OptOutKey): string {
  const payload = Buffer.from(JSON.stringify([who.merchantId, who.userId, who.channel])).toString("base64url");
  return `${VERSION}.${payload}.${mac(key, payload)}`;
}

/** The key a token names, or null when Payrail did not sign it with `key`. */
export function verifyUnsubscribeToken(key: Buffer, token: string): OptOutKey | null {
  const [version, payload, signature, ...rest] = token.split(".");
  if (version !== VERSION || !payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 3 || !parsed.every((p) => typeof p === "string")) return null;
    const [merchantId, userId, channel] = parsed as string[];
    if (channel !== "sms" && channel !== "email") return null;
    return { merchantId: merchantId!, userId: userId!, channel };
  } catch {
    return null;
  }
}

function mac(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(`${VERSION}.${payload}`).digest("base64url");
}
