import { AppError } from "@payrail/contracts";
import type { BankDataPort } from "./ports/bank-data.port.ts";

/**
 * Sandbox only: the public token the provider's UI would give the front end for a bank-linking
 * token, with the accounts to pick from. Live adapters have no such thing: the route is absent.
 */
export async function sandboxPublicToken(
  deps: { bankData: BankDataPort },
  linkToken: string,
  /** A consumer asking for themselves (the portal's picker): only a token issued to them. */
  forUserId?: string,
): Promise<{ public_token: string; accounts: { account_id: string; name: string; mask: string; subtype: string }[] }> {
  if (!deps.bankData.createSandboxPublicToken) {
    throw new AppError("route_not_found", "sandbox public tokens exist only with PROVIDERS=sandbox");
  }
  const out = await deps.bankData.createSandboxPublicToken(linkToken, forUserId);
  return {
    public_token: out.publicToken,
    accounts: out.accounts.map((a) => ({ account_id: a.accountId, name: a.name, mask: a.mask, subtype: a.subtype })),
  };
}
