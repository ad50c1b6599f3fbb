# docent as a container: `docker build -t docent .`, then
#   docker run -p 8787:8787 -v docent-data:/data docent
# (or `docker compose up`: PostgreSQL, Weaviate and two docent replicas behind nginx).
# The image runs the compiled JavaScript with plain node; no TypeScript loader,
# no compiler, no browser (Chromium is only for the playground's test).

# --- build: install everything, compile src/ to dist/, then drop the dev dependencies
FROM node:22-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source where its prebuilt binary cannot be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc prisma.config.ts ./
# npm's postinstall generates both Prisma clients from the schemas.
COPY prisma ./prisma
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev

# --- run: the compiled service, its runtime dependencies, and what it reads at run time
FROM node:22-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json marks dist/ as ES modules; README.md and docs/ are the demo source and /docs/;
# prisma/ holds the migrations applied at start.
COPY package.json README.md ./
COPY docs ./docs
COPY prisma ./prisma
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM stops it gracefully (SHUTDOWN_GRACE_MS); node runs as PID 1 here and handles it itself.
# The flags of npm run start:prod (README, Benchmark): a 32 MB young generation (V8's default is 16; far fewer
# scavenges under load, about 1.4x the throughput) and an old generation that grows by half its live size
# between full collections (V8 lets it grow up to 4x: ~600 MB RSS under load at 159k passages, ~430 MB so).
# node's command line, not NODE_OPTIONS, which refuses --heap-growing-percent.
CMD ["node", "--max-semi-space-size=32", "--heap-growing-percent=50", "dist/main.js"]
