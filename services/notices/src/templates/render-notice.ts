import type { NoticeChannel } from "@payrail/contracts";
import type { MerchantContact } from "../domain/ports/contacts.port.ts";
import { escapeHtml, merchantText } from "./escape.ts";
import type { NoticeContent } from "./notice-content.ts";

/** Longest merchant name, support email and phone a notice shows. */
export const MERCHANT_NAME_MAX = 80;
const SUPPORT_MAX = 254;

export interface RenderedNotice {
  subject: string;
  /** The SMS, or the email's plain-text part. */
  body: string;
  /** The email's HTML part; null for SMS. */
  html: string | null;
}

/** The merchant's strings as a notice may show them: flattened and length-limited. */
export function safeMerchant(merchant: MerchantContact): MerchantContact {
  return {
    name: merchantText(merchant.name, MERCHANT_NAME_MAX),
    supportEmail: merchant.supportEmail === null ? null : merchantText(merchant.supportEmail, SUPPORT_MAX),
    supportPhone: merchant.supportPhone === null ? null : merchantText(merchant.supportPhone, SUPPORT_MAX),
  };
}

function supportLine(m: MerchantContact): string {
  const ways = [m.supportEmail, m.supportPhone].filter((w): w is string => !!w);
  return ways.length > 0 ? `Questions? Contact ${m.name}: ${ways.join(", ")}.` : `Questions? Contact ${m.name}.`;
}

/**
 * A notice in its fixed layout. Every one names the merchant and how to reach its support; the
 * merchant's strings are made safe before they get here and escaped again in the HTML, which has
 * no slot for anything a merchant could shape into a page of its own (no logo, link or markup).
 */
export function renderNotice(channel: NoticeChannel, content: NoticeContent, merchant: MerchantContact, unsubscribeUrl?: string): RenderedNotice {
  const support = supportLine(merchant);
  if (channel === "sms") return { subject: content.subject, body: `${content.sms} ${support}`, html: null };
  const unsubscribe = unsubscribeUrl ? `To stop these optional emails: ${unsubscribeUrl}` : null;
  const text = [...content.paragraphs, ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []), support, ...(unsubscribe ? [unsubscribe] : []), "Sent by Payrail for " + merchant.name + "."].join("\n\n");
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const link = (label: string, url: string) => `<p style="margin:0 0 16px"><a href="${escapeHtml(url)}" style="color:#1d4ed8">${escapeHtml(label)}</a></p>`;
  const html = [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(content.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f6f7f9;font:16px/1.5 -apple-system,Segoe UI,Roboto,sans-serif;color:#111">',
    '<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">',
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.subject)}</h1>`,
    ...content.paragraphs.map(p),
    ...(content.action ? [link(content.action.label, content.action.url)] : []),
    `<p style="margin:24px 0 0;font-size:14px;color:#444">${escapeHtml(support)}</p>`,
    ...(unsubscribeUrl ? [`<p style="margin:8px 0 0;font-size:12px;color:#666"><a href="${escapeHtml(unsubscribeUrl)}" style="color:#666">Unsubscribe from optional emails</a></p>`] : []),
    `<p style="margin:8px 0 0;font-size:12px;color:#666">Sent by Payrail for ${escapeHtml(merchant.name)}.</p>`,
    "</div></body></html>",
  ].join("\n");
  return { subject: content.subject, body: text, html };
}
