/**
 * How a consumer's contact details are shown to anyone but the consumer (a notice's `to`, the
 * merchant's dashboard): enough to recognise, never enough to dial or write to.
 */

/** `+15555550100` → `+1•••••••0100`. */
export function maskPhone(e164: string): string {
  const keep = 4;
  const head = e164.slice(0, 2);
  return head + "•".repeat(Math.max(0, e164.length - head.length - keep)) + e164.slice(-keep);
}

/** `jane.doe@example.com` → `j•••@example.com`. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${address[0]}•••${address.slice(at)}`;
}
