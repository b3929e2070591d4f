import type { FastifyReply } from "fastify";

const tokens = new WeakMap<FastifyReply, string>();

/**
 * The CSRF token of this reply's forms (the portal's, the dashboard's), made once per reply: to a
 * browser without the secret cookie yet, each generateCsrf sets a new secret, and the last one
 * set would void the tokens of the page's other forms. `options`: the secret cookie's, if set.
 */
export function csrfToken(reply: FastifyReply, options?: Parameters<FastifyReply["generateCsrf"]>[0]): string {
  let token = tokens.get(reply);
  if (token === undefined) {
    token = reply.generateCsrf(options);
    tokens.set(reply, token);
  }
  return token;
}
