import { z } from "zod";
import { MandateAcceptance } from "./mandate.schema.ts";

/**
 * Bodies of the consumer endpoints (spec 4–7, docs/api-notes.md, Credentials and Moving money). Aliases that existing clients
 * send (`phone_number`, `code`) are folded into the canonical names here, once.
 */
export const SendCodeBody = z
  .object({ phone: z.string().min(1).max(64).optional(), phone_number: z.string().min(1).max(64).optional() })
  .transform((b, ctx) => {
    const phone = b.phone ?? b.phone_number;
    if (phone === undefined) {
      ctx.addIssue({ code: "custom", path: ["phone"], message: "is required", params: { code: "parameter_missing" } });
      return z.NEVER;
    }
    return { phone };
  });
export const SendCodeResponse = z.object({ success: z.string() });

export const VerifyCodeBody = z
  .object({
    phone: z.string().min(1).max(64).optional(),
    phone_number: z.string().min(1).max(64).optional(),
    verification_code: z.string().min(1).max(16).optional(),
    code: z.string().min(1).max(16).optional(),
  })
  .transform((b, ctx) => {
    const phone = b.phone ?? b.phone_number;
    const code = b.verification_code ?? b.code;
    if (phone === undefined) {
      ctx.addIssue({ code: "custom", path: ["phone"], message: "is required", params: { code: "parameter_missing" } });
      return z.NEVER;
    }
    if (code === undefined) {
      ctx.addIssue({ code: "custom", path: ["verification_code"], message: "is required", params: { code: "parameter_missing" } });
      return z.NEVER;
    }
    return { phone, verification_code: code };
  });
export const VerifyCodeResponse = z.object({
  message: z.string(),
  data: z.object({ auth_token: z.string(), user_id: z.string() }),
});

export const BankLinkTokenResponse = z.object({ link_token: z.string(), expiration: z.string(), request_id: z.string() });

export const ExchangePublicTokenBody = z.object({
  public_token: z.string().min(1).max(512),
  bankdata_account_id: z.string().min(1).max(255),
  /** The consumer accepted the mandate text of this version (docs/api-notes.md, Mandates); absent: the merchant attests at the debit. */
  mandate: MandateAcceptance.optional(),
});

export const MessageResponse = z.object({ message: z.string() });
