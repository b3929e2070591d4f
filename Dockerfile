# syntax=docker/dockerfile:1
# One image for every Payrail role; SERVICES (gateway,checkout,identity,payments,refunds) picks
# which ones a container runs. The app runs its TypeScript sources through tsx: no build step.

# ---- deps: install from the lockfile, with only the manifests in the build context so this
# layer is reused until a package.json or the lockfile changes.
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs/contracts/package.json libs/contracts/
COPY libs/messaging/package.json libs/messaging/
COPY libs/runtime/package.json libs/runtime/
COPY libs/store/package.json libs/store/
COPY services/gateway/package.json services/gateway/
COPY services/checkout/package.json services/checkout/
COPY services/identity/package.json services/identity/
COPY services/payments/package.json services/payments/
COPY services/refunds/package.json services/refunds/
# Full install: tsx, which runs the app, is a devDependency. Once it moves to "dependencies"
# this can become `npm ci --omit=dev` for a smaller image.
# --ignore-scripts: as with npm 11 in CI, no install scripts run (esbuild, which tsx uses, works
# without its postinstall; the others belong to test-only packages).
RUN npm ci --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- runtime
FROM node:20-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/app/.data
WORKDIR /app
# node_modules (root and any nested per-workspace ones) and the manifests, then the sources.
COPY --from=deps /app /app
COPY . .
# The embedded store (used when MONGODB_URL is unset) writes under DATA_DIR; nothing else is
# writable by the app user.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8080
CMD ["node", "--import", "tsx", "bin/payrail.ts", "start"]
