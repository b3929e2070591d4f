import {
  createMerchantOp,
  generateApiKeyOp,
  inviteMerchantUserOp,
  listApiKeysOp,
  listMerchantUsersOp,
  listMerchantsOp,
  reconcileOp,
  revokeApiKeyOp,
  updateMerchantFundingSourcesOp,
  type Operation,
  type ResponseOf,
} from "@payrail/contracts";
import type { AdminCall } from "./admin-call.ts";
import type { CliAccess } from "./cli-access.ts";
import { whyFetchFailed } from "./fetch-failure.ts";

type Route = { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string; body?: unknown };
const seg = encodeURIComponent;

/** The admin routes that carry each merchant and users command's operation (docs/api-notes.md, Credentials). */
const ROUTES: Record<string, (p: Record<string, unknown>) => Route> = {
  [createMerchantOp.pattern]: (p) => ({ method: "POST", path: "/api/admin/merchants", body: p }),
  [updateMerchantFundingSourcesOp.pattern]: ({ merchant_id: id, ...sources }) => ({ method: "PATCH", path: `/api/admin/merchants/${seg(String(id))}`, body: sources }),
  [listMerchantsOp.pattern]: (p) => ({ method: "GET", path: `/api/admin/merchants?limit=${Number(p.limit ?? 100)}` }),
  [listApiKeysOp.pattern]: (p) => ({ method: "GET", path: `/api/admin/merchants/${seg(String(p.merchant_id))}/api_keys` }),
  [generateApiKeyOp.pattern]: (p) => ({ method: "POST", path: `/api/admin/merchants/${seg(String(p.merchant_id))}/generate_api_key`, body: {} }),
  [inviteMerchantUserOp.pattern]: ({ merchant_id: id, ...invite }) => ({ method: "POST", path: `/api/admin/merchants/${seg(String(id))}/users`, body: invite }),
  [listMerchantUsersOp.pattern]: (p) => ({ method: "GET", path: `/api/admin/merchants/${seg(String(p.merchant_id))}/users` }),
  [reconcileOp.pattern]: (p) => ({ method: "POST", path: "/api/admin/reconcile", body: p }),
  [revokeApiKeyOp.pattern]: (p) => ({
    method: "DELETE",
    path: `/api/admin/merchants/${seg(String(p.merchant_id))}/api_keys/${seg(String(p.key_prefix))}`,
  }),
};

/**
 * Admin calls through the running gateway's admin routes: how the merchant commands work
 * beside a `payrail start` that holds the embedded store (its files belong to one process).
 * An error answer becomes an Error with the API's own message; an unreachable gateway names
 * its URL.
 */
export function adminOverHttp(access: CliAccess): AdminCall {
  return async <O extends Operation>(op: O, payload: unknown) => {
    const route = ROUTES[op.pattern];
    if (!route) throw new Error(`${op.pattern} has no admin route: stop Payrail (pid ${access.pid}) to run this command`);
    const { method, path, body } = route(payload as Record<string, unknown>);
    let reply: Response;
    try {
      reply = await fetch(`${access.url}${path}`, {
        method,
        headers: { "x-admin-token": access.adminToken, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (err) {
      throw new Error(`Payrail (pid ${access.pid}) holds the store but its API at ${access.url} did not answer: ${whyFetchFailed(err)}`);
    }
    const answer = (await reply.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    if (!reply.ok) throw new Error(answer?.error ? `${answer.error.message} (${answer.error.code})` : `${method} ${path} answered ${reply.status}`);
    return op.response.parse(answer) as ResponseOf<O>;
  };
}
