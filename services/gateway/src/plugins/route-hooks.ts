import type { RouteOptions } from "fastify";

type HookName = "onRequest" | "preHandler" | "onSend" | "onResponse";

/**
 * Adds `hook` after a route's own hooks of that name, from an `onRoute` hook: a hook that only
 * some routes need (or that holds what the route fixes, such as its metrics label) is added to
 * those routes as they are declared, so no other request pays a turn in fastify's hook runner.
 */
export function appendRouteHook<N extends HookName>(route: RouteOptions, name: N, hook: Extract<NonNullable<RouteOptions[N]>, (...args: never[]) => unknown>): void {
  const own = route[name] as unknown;
  (route as unknown as Record<N, unknown>)[name] = own === undefined ? [hook] : Array.isArray(own) ? [...(own as unknown[]), hook] : [own, hook];
}
