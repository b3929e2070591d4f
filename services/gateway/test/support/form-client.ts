import type { LightMyRequestResponse } from "fastify";

/**
 * What a browser keeps between the server-rendered pages (the portal's, the dashboard's) through
 * `app.inject`: the cookies they set (session, CSRF secret), dropping cleared or expired ones,
 * and the CSRF token of the last page's forms.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();
  csrf = "";

  protected keep(reply: LightMyRequestResponse): LightMyRequestResponse {
    for (const c of reply.cookies as { name: string; value: string; expires?: Date }[]) {
      if (c.value === "" || (c.expires !== undefined && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(reply.body);
    if (token?.[1]) this.csrf = token[1];
    return reply;
  }
}
