import type { Account } from "./session.ts";

/** The parts of Plaid Link's browser API the page uses (https://plaid.com/docs/link/web/). */
interface PlaidLinkMetadata {
  accounts: { id: string; name: string; mask: string | null; subtype: string | null }[];
}
interface PlaidGlobal {
  create(config: {
    token: string;
    onSuccess(publicToken: string, metadata: PlaidLinkMetadata): void;
    onExit(error: unknown): void;
  }): { open(): void; destroy(): void };
}

const SCRIPT = "https://cdn.plaid.com/link/v2/stable/link-initialize.js";

function loadScript(): Promise<PlaidGlobal> {
  const existing = (window as unknown as { Plaid?: PlaidGlobal }).Plaid;
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT;
    // The response's CSP nonce (live mode), read from the page's own script tag: Link's script
    // carries it to the script and styles it adds.
    script.nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce ?? "";
    script.onload = () => resolve((window as unknown as { Plaid: PlaidGlobal }).Plaid);
    script.onerror = () => reject(new Error("Plaid Link could not be loaded"));
    document.head.append(script);
  });
}

/**
 * Opens Plaid Link (live mode) with the bank-linking token; resolves with the public token and
 * the accounts the consumer shared, or null when they closed it.
 */
export async function openPlaidLink(token: string): Promise<{ publicToken: string; accounts: Account[] } | null> {
  const Plaid = await loadScript();
  return new Promise((resolve) => {
    const handler = Plaid.create({
      token,
      onSuccess: (publicToken, metadata) => {
        handler.destroy();
        resolve({
          publicToken,
          accounts: metadata.accounts.map((a) => ({ account_id: a.id, name: a.name, mask: a.mask ?? "", subtype: a.subtype ?? "" })),
        });
      },
      onExit: () => {
        handler.destroy();
        resolve(null);
      },
    });
    handler.open();
  });
}
