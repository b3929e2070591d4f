# syntax=docker/dockerfile:1
# One image for every Payrail role; SERVICES (gateway,checkout,identity,payments,refunds,webhooks,notices) picks
# which ones a container runs. The build stage compiles the TypeScript into one JavaScript file
# (`npm run build` → dist/payrail.mjs); the runtime stage runs it with plain node, on the
# production dependencies only: no TypeScript loader, no dev tools.

# ---- manifests: only the package files in the context, so the install layers below are
# reused until a package.json or the lockfile changes.
FROM node:20-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/messaging/package.json libs/messaging/
COPY libs/runtime/package.json libs/runtime/
COPY libs/store/package.json libs/store/
COPY libs/client/package.json libs/client/
COPY libs/web/package.json libs/web/
COPY apps/hosted-page/package.json apps/hosted-page/
COPY apps/portal/package.json apps/portal/
COPY apps/dashboard/package.json apps/dashboard/
COPY services/gateway/package.json services/gateway/
COPY services/checkout/package.json services/checkout/
COPY services/identity/package.json services/identity/
COPY services/payments/package.json services/payments/
COPY services/refunds/package.json services/refunds/
COPY services/webhooks/package.json services/webhooks/
COPY services/notices/package.json services/notices/

# ---- deps: everything, for the build (tsx and its esbuild compile the bundle).
# --ignore-scripts: as with npm 11 in CI, no install scripts run (esbuild, which tsx uses, works
# without its postinstall; the others belong to test-only packages).
FROM manifests AS deps
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- prod-deps: what the bundle imports at run time (every third-party package stays external).
# Native modules need their install script, run for them alone: better-sqlite3's fetches its
# prebuilt binary (`npm rebuild` of a package that is not installed does nothing).
FROM manifests AS prod-deps
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
    && npm rebuild better-sqlite3 \
    && npm cache clean --force

# ---- build: bin/payrail.ts and the @payrail/* packages → dist/payrail.mjs (+ source map).
FROM deps AS build
COPY . .
RUN npm run build

# ---- runtime
FROM node:20-slim AS runtime
# MALLOC_ARENA_MAX: glibc would give each of node's threads a malloc arena of its own and keep
# what they freed in it (docs/decisions/0039-lean-request-path.md); it reads the variable
# before node starts, so only the environment can set it.
ENV NODE_ENV=production \
    DATA_DIR=/app/.data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# dist/payrail.mjs resolves its third-party imports from /app/node_modules. package.json and
# bin/start.mjs only keep `npm start` meaningful inside the container (it runs the same file).
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/package.json ./
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin/start.mjs ./bin/
# The embedded store (used when MONGODB_URL is unset) writes under DATA_DIR; nothing else is
# writable by the app user.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080
# Admin commands run the same file, as the CLI's broker user (docker-compose.yml):
# `docker compose exec -e AMQP_URL=amqp://payrail-cli:payrail-dev-cli@rabbitmq:5672 identity node dist/payrail.mjs merchant create --name Acme`.
CMD ["node", "dist/payrail.mjs", "start"]
