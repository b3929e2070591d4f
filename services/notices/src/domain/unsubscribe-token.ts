import { createHmac, timingSafeEqual } from "node:crypto";
import type { NoticeChannel } from "@payrail/contracts";

/** Whose optional notices on which channel an unsubscribe link stops. */
export interface OptOutKey {
  merchantId: string;
  userId: string;
  channel: NoticeChannel;
}

const VERSION = "u1";
/** 128 bits of HMAC-SHA256: unguessable, and the token fits one path segment (at most 100 characters). */
const MAC_BYTES = 16;
const CHANNELS = ["sms", "email"] as const;
const MERCHANT = /^mer_[0-9a-f]{32}$/;
const HEX_USER = /^[0-9a-f]{32}$/;

/**
 * An unsubscribe link's token: `u1.<payload>.<MAC>`, base64url, the payload naming the channel,
 * the merchant and the consumer (their usual hex ids as bytes, so the token stays short), the MAC
 * 128 bits of HMAC-SHA256 over it. Unguessable without the key, and no part of it can be changed
 * (another merchant, another consumer) without breaking the MAC. It never expires: an old
 * email's link keeps working, as RFC 8058 expects.
 */
export function signUnsubscribeToken(key: Buffer, who: OptOutKey): string {
  const payload = encode(who).toString("base64url");
  return `${VERSION}.${payload}.${mac(key, payload)}`;
}

/** The key a token names, or null when Payrail did not sign it with `key`. */
export function verifyUnsubscribeToken(key: Buffer, token: string): OptOutKey | null {
  const [version, payload, signature, ...rest] = token.split(".");
  if (version !== VERSION || !payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(mac(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return decode(Buffer.from(payload, "base64url"));
}

/** `[channel, flags, merchant, user]`: an id of the usual form as its 16 bytes (flag bit set), else its length and UTF-8. */
function encode(who: OptOutKey): Buffer {
  const merchantCompact = MERCHANT.test(who.merchantId);
  const userCompact = HEX_USER.test(who.userId);
  const part = (compact: boolean, hex: string, text: string) => {
    if (compact) return Buffer.from(hex, "hex");
    const bytes = Buffer.from(text, "utf8");
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  };
  return Buffer.concat([
    Buffer.from([CHANNELS.indexOf(who.channel), (merchantCompact ? 1 : 0) | (userCompact ? 2 : 0)]),
    part(merchantCompact, who.merchantId.slice(4), who.merchantId),
    part(userCompact, who.userId, who.userId),
  ]);
}

function decode(bytes: Buffer): OptOutKey | null {
  const channel = CHANNELS[bytes[0] ?? -1];
  const flags = bytes[1];
  if (!channel || flags === undefined) return null;
  let at = 2;
  const part = (compact: boolean): string | null => {
    if (compact) {
      if (bytes.length < at + 16) return null;
      at += 16;
      return bytes.subarray(at - 16, at).toString("hex");
    }
    const length = bytes[at];
    if (length === undefined || bytes.length < at + 1 + length) return null;
    at += 1 + length;
    return bytes.subarray(at - length, at).toString("utf8");
  };
  const merchant = part((flags & 1) !== 0);
  const userId = part((flags & 2) !== 0);
  if (merchant === null || userId === null || at !== bytes.length) return null;
  return { merchantId: (flags & 1) !== 0 ? `mer_${merchant}` : merchant, userId, channel };
}

function mac(key: Buffer, payload: string): string {
  return createHmac("sha256", key).update(`${VERSION}.${payload}`).digest().subarray(0, MAC_BYTES).toString("base64url");
}
