/**
 * A dashboard owner signed in over real HTTP, as a browser does it: invited by the admin route,
 * the invitation accepted with a password, signed in; each form posted with the CSRF token of
 * the page before it and the cookies so far. Node's fetch keeps no cookies, so this does.
 */
const PASSWORD = "bench dashboard owner password";

export interface DashboardOwner {
  email: string;
  /** The `cookie` header of the signed-in browser (the session cookie). */
  cookie: string;
}

class Browser {
  private readonly cookies = new Map<string, string>();
  private csrf = "";

  constructor(private readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  async get(path: string): Promise<Response> {
    return this.keep(await fetch(`${this.baseUrl}${path}`, { headers: { cookie: this.cookieHeader() }, redirect: "manual" }));
  }

  async post(path: string, form: Record<string, string>): Promise<Response> {
    const body = new URLSearchParams({ ...form, _csrf: this.csrf }).toString();
    const headers = { cookie: this.cookieHeader(), "content-type": "application/x-www-form-urlencoded" };
    return this.keep(await fetch(`${this.baseUrl}${path}`, { method: "POST", headers, body, redirect: "manual" }));
  }

  private async keep(res: Response): Promise<Response> {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token?.[1]) this.csrf = token[1];
    // The body is read once here; callers get it back through a fresh Response.
    return new Response(res.status === 204 || res.status === 304 ? null : text, { status: res.status, headers: res.headers });
  }
}

/** Invites an owner of `merchantId`, sets its password and signs it in; fails loudly at any step. */
export async function signInOwner(baseUrl: string, adminToken: string, merchantId: string): Promise<DashboardOwner> {
  const email = `bench-owner-${Date.now()}@shop.example`;
  const invited = await fetch(`${baseUrl}/api/admin/merchants/${merchantId}/users`, {
    method: "POST",
    headers: { "x-admin-token": adminToken, "content-type": "application/json" },
    body: JSON.stringify({ email, role: "owner" }),
  });
  if (invited.status !== 200) throw new Error(`invite: ${invited.status} ${await invited.text()}`);
  const { url } = (await invited.json()) as { url: string };
  const token = decodeURIComponent(url.split("#token=")[1] ?? "");

  const browser = new Browser(baseUrl);
  await browser.get("/dashboard/accept");
  const accepted = await browser.post("/dashboard/accept", { token, password: PASSWORD, confirm: PASSWORD });
  if (accepted.status !== 303) throw new Error(`accept: ${accepted.status} ${await accepted.text()}`);
  await browser.get("/dashboard/sign-in");
  const signedIn = await browser.post("/dashboard/sign-in", { email, password: PASSWORD });
  if (signedIn.status !== 303 || signedIn.headers.get("location") !== "/dashboard") throw new Error(`sign-in: ${signedIn.status} ${await signedIn.text()}`);
  return { email, cookie: browser.cookieHeader() };
}
