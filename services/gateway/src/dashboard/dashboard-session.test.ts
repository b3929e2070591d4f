import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import type { GatewayContext } from "../gateway-context.ts";
import { sessionCookieOptions } from "./dashboard-session.ts";

const ctx = (secureCookies: boolean) => ({ secureCookies }) as GatewayContext;
const over = (protocol: "http" | "https") => ({ protocol }) as FastifyRequest;

describe("the dashboard's session cookie", () => {
  it("is httpOnly, SameSite=Lax and scoped to /dashboard; Secure over https or in production", () => {
    expect(sessionCookieOptions(ctx(false), over("http"), 60)).toEqual({ httpOnly: true, sameSite: "lax", secure: false, path: "/dashboard", maxAge: 60 });
    expect(sessionCookieOptions(ctx(false), over("https")).secure).toBe(true);
    expect(sessionCookieOptions(ctx(true), over("http")).secure).toBe(true);
  });
});
