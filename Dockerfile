# syntax=docker/dockerfile:1

# ---- build: production dependencies + generated Prisma client ----
FROM node:24-slim AS build
WORKDIR /app

# The postinstall script (scripts/prisma-generate.mjs) runs `prisma generate`, which reads
# prisma.config.ts and prisma/schema.prisma and writes the client into src/generated/prisma,
# so those must be in place before `npm ci`.
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
# The postinstall script also builds the web app (src/web/client → dist/web), so the source comes
# first; src/generated is in .dockerignore, so the Prisma client is generated fresh by npm ci.
COPY tsconfig.json ./
COPY src ./src
# tsx and esbuild are runtime dependencies (the server's worker threads run their TypeScript through
# tsx; the web, widget and server bundles use esbuild), so --omit=dev is enough.
RUN npm ci --omit=dev && npm cache clean --force

# ---- runtime ----
FROM node:24-slim AS runtime
WORKDIR /app

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data

COPY --from=build --chown=node:node /app/package.json /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/prisma ./prisma
COPY --from=build --chown=node:node /app/src ./src
COPY --from=build --chown=node:node /app/dist ./dist

# DATA_DIR: the embedded database (when DATABASE_URL is unset), the admin socket, attachments.
# Created here owned by node so a named volume mounted on it starts out writable by node.
RUN mkdir -p /app/data && chown node:node /app/data

USER node
EXPOSE 3000

# No curl in slim images: use node's built-in fetch.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"

# Run node directly (not npm) so SIGTERM reaches the server and it shuts down gracefully.
# Pending migrations are applied at start by the app (MIGRATE_ON_START=true by default).
# The server's bundle, built by npm ci (postinstall: scripts/server-bundle.mjs); its modules find
# their SQL, worker and migration files under src/ and prisma/ as when run from source. Source maps on,
# as `npm start` turns them on: stack traces in the log name the source files.
CMD ["node", "--enable-source-maps", "dist/server/server.mjs"]
