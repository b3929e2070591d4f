import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { Stack } from "../../../../test/support/stack.ts";
import { FormClient } from "./form-client.ts";

/**
 * A browser's view of the consumer portal through `app.inject`: it keeps the cookies the
 * portal sets (session and CSRF secret) and reads each form's CSRF token from the last page.
 */
export class PortalClient extends FormClient {
  /** `app`: the gateway whose portal is visited (a live-mode one, say); texted codes come from the stack's sandbox. */
  constructor(
    private readonly stack: Stack,
    private readonly app: Pick<Stack["app"], "inject"> = stack.app,
  ) {
    super();
  }

  async send(options: InjectOptions & { form?: Record<string, string> }): Promise<LightMyRequestResponse> {
    const { form, ...rest } = options;
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const reply = await this.app.inject({
      ...rest,
      headers: { accept: "text/html", ...(cookie ? { cookie } : {}), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}), ...rest.headers },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    return this.keep(reply);
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.send({ method: "GET", url });
  }

  /** Posts a form with the CSRF token of the last page. */
  post(url: string, form: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.send({ method: "POST", url, form: { _csrf: this.csrf, ...form } });
  }

  /** Signs in through the portal's own forms, reading the texted code from the sandbox. */
  async signIn(phone: string, apiKey: string): Promise<void> {
    await this.get("/account");
    const sent = await this.post("/account/sign-in/code", { phone });
    if (sent.statusCode !== 200) throw new Error(`send code: ${sent.statusCode} ${sent.body}`);
    const code = await this.stack.app.inject({ url: `/api/sandbox/verification_codes/${encodeURIComponent(phone)}`, headers: { "api-key": apiKey } });
    const signedIn = await this.post("/account/sign-in", { phone, code: code.json().code });
    if (signedIn.statusCode !== 303) throw new Error(`sign in: ${signedIn.statusCode} ${signedIn.body}`);
  }
}
