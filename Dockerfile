# Ecobase: one container, Bun running the server's bundle, built from the TypeScript sources here.
#
#   docker build -t ecobase --build-arg GIT_COMMIT=$(git rev-parse HEAD) .
#   docker run --init -p 3000:3000 -v ecobase-data:/data ecobase
#
# With no configuration it uses embedded PGlite and a generated key, both kept in the /data volume.
# Configuration: environment variables, see .env.example.

# --- dependencies -----------------------------------------------------------------------------
# The lockfile is npm's package-lock.json, so production dependencies are installed by `npm ci`,
# which installs exactly what the lockfile says or fails; a Bun-only install would have to
# migrate the npm lockfile first. `--omit=dev` leaves out the `bun` npm package (the runtime
# image brings its own bun), drizzle-kit and the compilers. `--ignore-scripts` is safe because
# no production dependency has an install script. The result is plain JavaScript, WebAssembly
# (PGlite) and one prebuilt native addon, @node-rs/argon2, which npm picks for the build platform
# from its optional dependencies (glibc here); both stages are Debian (glibc) and build for the
# same platform, so it runs unchanged on the Bun image.
FROM node:24-slim AS deps
WORKDIR /app
# tools/ is an npm workspace (test-only tools); npm ci wants its package.json, installs nothing of it here.
COPY package.json package-lock.json ./
COPY tools/package.json ./tools/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# --- runtime ----------------------------------------------------------------------------------
FROM oven/bun:1.4.5 AS runtime
WORKDIR /app

# NODE_ENV=production: Elysia then keeps validator internals out of error details (the app maps
# validation errors to its own body anyway). The app itself reads no NODE_ENV.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data

# The data directory must exist and belong to the runtime user before VOLUME, so that a new named
# volume starts out with that ownership. The application files stay root-owned and read-only.
RUN mkdir -p /data && chown bun:bun /data

COPY --from=deps /app/node_modules ./node_modules
# The whole build context, trimmed by .dockerignore to what the server runs: package.json (the
# version endpoint reads it), tsconfig.json, src/ (with the scheduler, src/jobs/), drizzle/
# (migrations, applied at boot), bin/ (the operator's command line), console/ and client/ (the
# console's sources). Copying the context rather than a list means a new runtime directory can
# never be forgotten here; .dockerignore keeps out tests, benches, examples, docs, local data and
# .env files (Bun would load a .env by itself).
COPY . .

# The embedded-database seed (initialised and migrated PGlite), so a container without
# DATABASE_URL starts in about a second instead of running initdb (bench/README.md, P7), the
# console's assets (console/ and client/ bundled; the runtime user could not write them later),
# and the server bundle with its bytecode, which `bun src/index.ts` runs (about 200 ms off a start).
RUN bun src/seed.ts && bun src/modules/console/assets.ts && bun src/bundle.ts

# Shown by GET /site/version; the image has no .git to read it from.
ARG GIT_COMMIT=""
ENV GIT_COMMIT=${GIT_COMMIT}

# The base image's user (uid 1000).
USER bun
VOLUME ["/data"]
EXPOSE 3000

# /health answers 200, or 503 when the database is down. bun is the only tool needed (no curl).
# start-period covers the first boot, when PGlite initialises its data directory (a few seconds).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["bun", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# bun runs as PID 1 through the base image's entrypoint (which execs it); the server stops cleanly
# on SIGTERM. Run with --init (compose: `init: true`) so signals arriving during boot are not lost.
CMD ["bun", "src/index.ts"]
