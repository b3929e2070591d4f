import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { sessionCookieOptions } from "./dashboard-session.ts";

const request = (cookieSecure: boolean) => ({ cookieSecure }) as FastifyRequest;

describe("the dashboard's session cookie", () => {
  // When a request's cookies are Secure (https, a trusted proxy's https, production): secure-cookies.http.test.ts.
  it("is httpOnly, SameSite=Lax and scoped to /dashboard; Secure as the request's cookies are", () => {
    expect(sessionCookieOptions(request(false), 60)).toEqual({ httpOnly: true, sameSite: "lax", secure: false, path: "/dashboard", maxAge: 60 });
    expect(sessionCookieOptions(request(true)).secure).toBe(true);
  });
});
