/**
 * Builds the embedded database's seed (src/platform/db/seed.ts), run by `npm install`
 * (postinstall) and the Dockerfile. Beside the migrations it holds the job queue's tables and every
 * queue the server declares, made by the server's own queue from the app's definitions: a first
 * start then finds them, and a restart soon after it does not take them for another replica's.
 * Failing here must not fail the install: without a seed the first start runs initdb, which is
 * only slower. No top-level await: the server bundle (src/bundle.ts) is CommonJS, which has none.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from './app'
import { buildDeps, loadConfig } from './boot'
import { randomToken } from './platform/crypto'
import { buildSeed } from './platform/db/seed'

const started = performance.now()
// A configuration of its own: nothing it names outlives the build (no secret file, no stored files).
const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-seed-'))
buildSeed(async (database) => {
  const deps = buildDeps(loadConfig({ DATA_DIR: dataDir, AUTH_SECRET: randomToken(), JOBS: 'off', LOG_LEVEL: 'silent' }), database)
  createApp(deps)
  await deps.queue.prepare()
  await deps.queue.stop(1000)
})
  .then(
    (built) => built && console.log(`ecobase: embedded database seed built in ${Math.round(performance.now() - started)} ms`),
    (err) => console.warn(`ecobase: no embedded database seed (${(err as Error).message}); the first start will run initdb`),
  )
  .finally(() => rmSync(dataDir, { recursive: true, force: true }))
