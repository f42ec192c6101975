import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { migrate, MIGRATIONS_DIR, openPglite } from './index'

/**
 * An initialised, migrated PGlite data directory, made once at install or image build time, so
 * the first `npm start` copies it instead of running initdb (seconds) — bench/README.md, P7.
 * Boot still runs migrations afterwards, so a seed older than the code is brought up to date.
 */
export const SEED_FILE = resolve(import.meta.dir, '../../../node_modules/.cache/ecobase/pglite-seed.tar.gz')
const STAMP_FILE = `${SEED_FILE}.journal`

function journal(): string {
  return readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')
}

/** The seed as a Blob for PGlite's `loadDataDir`, or undefined when none has been built. */
export function loadSeed(): Blob | undefined {
  return existsSync(SEED_FILE) ? new Blob([readFileSync(SEED_FILE)]) : undefined
}

/** Builds the seed unless one for the current migrations exists; returns whether it built one. */
export async function buildSeed(): Promise<boolean> {
  const current = journal()
  if (existsSync(SEED_FILE) && existsSync(STAMP_FILE) && readFileSync(STAMP_FILE, 'utf8') === current) return false
  const database = await openPglite()
  try {
    await migrate(database)
    const blob = await database.dump!()
    mkdirSync(dirname(SEED_FILE), { recursive: true })
    writeFileSync(`${SEED_FILE}.tmp`, new Uint8Array(await blob.arrayBuffer()))
    renameSync(`${SEED_FILE}.tmp`, SEED_FILE)
    writeFileSync(STAMP_FILE, current)
    return true
  } finally {
    await database.close()
  }
}

if (import.meta.main) {
  // Run by `npm install` (postinstall) and the Dockerfile. Failing here must not fail the
  // install: without a seed the first start runs initdb, which is only slower.
  try {
    const started = performance.now()
    if (await buildSeed()) console.log(`ecobase: embedded database seed built in ${Math.round(performance.now() - started)} ms`)
  } catch (err) {
    console.warn(`ecobase: no embedded database seed (${(err as Error).message}); the first start will run initdb`)
  }
}
