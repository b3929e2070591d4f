import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { ADMIN_TOKEN } from "../../../../test/support/stack.ts";
import { FormClient } from "./form-client.ts";

export const DASHBOARD_PASSWORD = "correct horse battery";

/** A browser's view of the dashboard through `app.inject`: its cookies, and the CSRF token of the last page. */
export class DashboardClient extends FormClient {
  constructor(
    private readonly app: FastifyInstance,
    readonly remoteAddress = "127.0.0.1",
    /** Headers sent with every request (a proxy's X-Forwarded-For). */
    private readonly headers: Record<string, string> = {},
  ) {
    super();
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.keep(await this.app.inject({ method: "GET", url, headers: this.headers, cookies: Object.fromEntries(this.cookies), remoteAddress: this.remoteAddress }));
  }

  /** Posts a form; the page's CSRF token unless `csrf` says otherwise (null: none at all). */
  async post(url: string, form: Record<string, string> = {}, csrf: string | null = this.csrf): Promise<LightMyRequestResponse> {
    const payload = new URLSearchParams({ ...form, ...(csrf === null ? {} : { _csrf: csrf }) }).toString();
    return this.keep(
      await this.app.inject({
        method: "POST",
        url,
        payload,
        headers: { ...this.headers, "content-type": "application/x-www-form-urlencoded" },
        cookies: Object.fromEntries(this.cookies),
        remoteAddress: this.remoteAddress,
      }),
    );
  }

  async signIn(email: string, password = DASHBOARD_PASSWORD): Promise<LightMyRequestResponse> {
    await this.get("/dashboard/sign-in");
    return this.post("/dashboard/sign-in", { email, password });
  }
}

let counter = 0;

/** A dashboard user of the merchant: invited by the admin route, password set on the invitation page, signed in. */
export async function dashboardUser(app: FastifyInstance, merchantId: string, role: "owner" | "admin" | "viewer"): Promise<{ client: DashboardClient; email: string; id: string }> {
  const email = `${role}${++counter}-${Date.now()}@shop.example`;
  const invited = await app.inject({
    method: "POST",
    url: `/api/admin/merchants/${merchantId}/users`,
    headers: { "x-admin-token": ADMIN_TOKEN },
    payload: { email, role },
  });
  if (invited.statusCode !== 200) throw new Error(`invite: ${invited.statusCode} ${invited.body}`);
  const { url, user } = invited.json<{ url: string; user: { id: string } }>();
  const token = decodeURIComponent(url.split("#token=")[1] ?? "");
  const client = new DashboardClient(app);
  await client.get("/dashboard/accept");
  const accepted = await client.post("/dashboard/accept", { token, password: DASHBOARD_PASSWORD, confirm: DASHBOARD_PASSWORD });
  if (accepted.statusCode !== 303) throw new Error(`accept: ${accepted.statusCode} ${accepted.body}`);
  const signedIn = await client.signIn(email);
  if (signedIn.statusCode !== 303 || signedIn.headers.location !== "/dashboard") throw new Error(`sign-in: ${signedIn.statusCode} ${signedIn.body}`);
  return { client, email, id: user.id };
}
