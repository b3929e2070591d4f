import { z } from "zod";

/** `GET /api/sandbox/verification_codes/{phone}` (docs/api-notes.md, The sandbox, sandbox only). */
export const VerificationCodePhoneParam = z.object({ phone: z.string().min(1).max(64) });

/** The reading merchant's code for the last send to a phone, and when that send's code expires. */
export const SandboxVerificationCode = z.object({ phone: z.string(), code: z.string(), expires_at: z.string() });
export type SandboxVerificationCode = z.infer<typeof SandboxVerificationCode>;
