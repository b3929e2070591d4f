/**
 * Architecture rules from docs/architecture.md, checked by `npm run lint`
 * (`depcruise libs apps services bin --config .dependency-cruiser.cjs`).
 *
 * Paths are relative to the repository root. Workspace packages (`@payrail/*`) resolve through
 * the node_modules symlinks to their real folders under libs/, apps/ and services/, so a rule written
 * against `^services/` also catches `import ... from "@payrail/checkout"`.
 */

/**
 * Matches a package (and its subpaths and its `@types/` companion), whether it resolved into
 * some node_modules folder or could not be resolved at all (then the path is the bare name).
 */
function pkg(...names) {
  const alternatives = names.flatMap((name) => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    const typesName = name.startsWith("@") ? name.slice(1).replace("/", "__") : name;
    const typesEscaped = typesName.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    return [
      `(^|/)node_modules/${escaped}(/|$)`,
      `(^|/)node_modules/@types/${typesEscaped}(/|$)`,
      `^${escaped}(/|$)`,
    ];
  });
  return alternatives.join("|");
}

/** fastify itself, the `@fastify/*` scope and `fastify-*` plugins. */
const FASTIFY = "(^|/)node_modules/(@fastify/|fastify[^/]*(/|$))|^(@fastify/|fastify[^/]*(/|$))";

/** Node's HTTP modules, with or without the `node:` prefix. */
const NODE_HTTP = "^(node:)?(http|https|http2)$";

/**
 * Test code: unit tests beside the code, each package's test/ folder, and the root test/ harness
 * that assembles the whole stack. It may use the vendor packages directly (e.g. a FastifyInstance
 * for app.inject, or the mongodb driver to inspect a collection); production code may not.
 */
const TEST_CODE = "\\.test\\.ts$|^(libs|apps|services)/[^/]+/test/|^test/";

/** An app's public face: its package's index (`@payrail/<app>`), the one file others may import. */
const APP_INDEX = "^apps/[^/]+/src/index\\.ts$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cross-service-imports",
      comment:
        "A service never imports another service: shared code lives in libs/, and services talk over RPC. " +
        "The gateway's test/ is the exception docs/architecture.md names: cross-service and HTTP tests live there.",
      severity: "error",
      from: { path: "^services/([^/]+)/", pathNot: "^services/gateway/test/" },
      to: { path: "^services/", pathNot: "^services/$1/" },
    },
    {
      name: "libs-not-to-services",
      comment: "libs/ are shared building blocks; they never depend on a service or an app (libs/web imports no app).",
      severity: "error",
      from: { path: "^libs/" },
      to: { path: "^(services|apps)/" },
    },
    {
      name: "apps-not-to-services",
      comment:
        "The web apps (dashboard, portal, hosted page) use libs/* and @payrail/contracts and reach the services over RPC, " +
        "never a service's code, the gateway's included: what they share with the API is in libs/web.",
      severity: "error",
      from: { path: "^apps/" },
      to: { path: "^services/" },
    },
    {
      name: "apps-through-their-index",
      comment:
        "An app is used through its package (`@payrail/<app>`, its src/index.ts) alone: the gateway registers its plugin, " +
        "the portal uses the hosted page's build of its script. Tests may reach further.",
      severity: "error",
      from: { path: "^apps/([^/]+)/", pathNot: TEST_CODE },
      to: { path: "^apps/", pathNot: [APP_INDEX, "^apps/$1/"] },
    },
    {
      name: "apps-through-their-index-outside",
      comment: "The gateway and bin/ use an app through its package (`@payrail/<app>`, its src/index.ts) alone. Tests may reach further.",
      severity: "error",
      from: { path: "^(services|bin)/", pathNot: TEST_CODE },
      to: { path: "^apps/", pathNot: APP_INDEX },
    },
    {
      name: "apps-only-in-the-gateway",
      comment: "Only the gateway process registers the web apps (and bin/build.ts prebuilds the hosted page); no domain service imports one.",
      severity: "error",
      from: { path: "^services/", pathNot: ["^services/gateway/", TEST_CODE] },
      to: { path: "^apps/" },
    },
    {
      name: "amqplib-only-in-messaging",
      comment: "libs/messaging is the only importer of amqplib.",
      severity: "error",
      from: { pathNot: ["^libs/messaging/", TEST_CODE] },
      to: { path: pkg("amqplib") },
    },
    {
      name: "mongodb-only-in-store",
      comment: "libs/store is the only importer of mongodb and of the embedded store (nedb).",
      severity: "error",
      from: { pathNot: ["^libs/store/", TEST_CODE] },
      to: { path: pkg("mongodb", "@seald-io/nedb") },
    },
    {
      name: "fastify-only-in-the-web-tier",
      comment:
        "services/gateway, the web apps (apps/*) and their kit (libs/web) are the only importers of fastify, @fastify/* and fastify-* plugins.",
      severity: "error",
      from: { pathNot: ["^services/gateway/", "^apps/", "^libs/web/", TEST_CODE] },
      to: { path: FASTIFY },
    },
    {
      name: "domain-no-infrastructure",
      comment:
        "The domain layer imports no broker, database, web framework or HTTP client; it states what it needs as ports.",
      severity: "error",
      from: { path: "^services/[^/]+/src/domain/" },
      to: {
        path: [
          pkg("amqplib", "mongodb", "@seald-io/nedb", "undici", "axios", "node-fetch", "got"),
          FASTIFY,
          NODE_HTTP,
        ].join("|"),
      },
    },
    {
      name: "domain-no-outer-layers",
      comment:
        "The domain layer does not reach into its service's data-access or adapters; those implement the domain's ports.",
      severity: "error",
      from: { path: "^services/([^/]+)/src/domain/", pathNot: TEST_CODE },
      to: { path: "^services/$1/src/(data-access|adapters)/" },
    },
    {
      name: "contracts-only-zod",
      comment: "libs/contracts imports nothing but zod (and its own files).",
      severity: "error",
      from: { path: "^libs/contracts/", pathNot: TEST_CODE },
      to: { pathNot: `^libs/contracts/|${pkg("zod")}` },
    },
    {
      name: "no-circular",
      comment:
        "Circular dependencies make start-up order and tests fragile: break the cycle (move the shared piece into its own file).",
      severity: "error",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-circular-type-only",
      comment:
        "A cycle made only through `import type` is erased at run time, so it is a warning; a shared types file still reads better.",
      severity: "warn",
      from: {},
      to: { circular: true, via: { dependencyTypes: ["type-only"] } },
    },
    {
      name: "no-circular-in-payments",
      comment:
        "Inside payments no cycle at all, type-only ones included: its domain is organised by what each folder owns " +
        "(docs/architecture.md, Payments inside), and a type two folders need lives in one file both import.",
      severity: "error",
      from: { path: "^services/payments/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment:
        "An import that cannot be resolved would slip past every rule above (and fail at run time).",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    // Our own build output and data only. An unanchored "dist/" would also drop every npm
    // package that ships from a dist/ folder (and so let its imports slip past the rules).
    exclude: {
      path: ["^(libs|apps|services)/[^/]+/(dist|coverage)/", "^libs/client/build/", "^(dist|dist-tools|coverage|\\.data|\\.infra)/"],
    },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      // No "types" here on purpose: enhanced-resolve takes the first condition listed in the
      // package's exports object and, unlike TypeScript, does not fall back when its file is
      // missing. Our workspace packages list "types" first, pointing at ./dist/index.d.ts (which
      // tsc -b never writes: it emits dist/src/index.d.ts), so "types" would leave every
      // `@payrail/*` import unresolved; "import" / "default" lead to their src/index.ts, which is
      // also the graph we want to check.
      // Type-only packages still resolve through mainFields' "types"/"typings".
      conditionNames: ["import", "node", "default"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".d.ts", ".mts", ".js", ".mjs", ".cjs", ".json"],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
