import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { replaceDirectory } from '../directories'
import { type Database, migrate, MIGRATIONS_DIR, openPglite } from './index'
import { dropTemplates } from './pglite-maintenance'

/**
 * An initialised, migrated PGlite data directory, made once at install or image build time
 * (src/seed.ts), so the first `npm start` copies it instead of running initdb (seconds) —
 * bench/README.md, P7. It holds the job queue's tables and queues too (made at a start otherwise:
 * about 50 statements). Boot still runs migrations afterwards, so a seed older than the code is
 * brought up to date, and the queue creates a queue the seed lacks.
 * A plain directory, copied with the file system: PGlite's own `loadDataDir` unpacks a tarball
 * file by file through its WebAssembly file system, which took 3.4 s of a first start.
 */
export const SEED_DIR = resolve(import.meta.dir, '../../../node_modules/.cache/ecobase/pglite-seed')
const STAMP_FILE = `${SEED_DIR}.journal`

function journal(): string {
  return readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')
}

/**
 * Fills `dataDir` (a PGlite data directory that does not exist yet) from the seed; false when no
 * seed has been built (the first start then runs initdb). Copied under a temporary name and
 * renamed, so an interrupted copy is never taken for a data directory.
 */
export function copySeed(dataDir: string): boolean {
  if (!existsSync(join(SEED_DIR, 'PG_VERSION')) || existsSync(dataDir)) return false
  const partial = `${dataDir}.seeding`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(dirname(dataDir), { recursive: true })
  cpSync(SEED_DIR, partial, { recursive: true })
  renameSync(partial, dataDir)
  return true
}

/**
 * Builds the seed unless one for the current migrations exists; returns whether it built one.
 * `prepare` adds what a start would make beside the migrations (src/seed.ts: the job queue).
 */
export async function buildSeed(prepare: (database: Database) => Promise<void>): Promise<boolean> {
  const current = journal()
  if (existsSync(join(SEED_DIR, 'PG_VERSION')) && existsSync(STAMP_FILE) && readFileSync(STAMP_FILE, 'utf8') === current) return false
  const building = `${SEED_DIR}.tmp`
  rmSync(building, { recursive: true, force: true })
  mkdirSync(dirname(SEED_DIR), { recursive: true })
  const database = await openPglite({ dataDir: building, initdb: ['--wal-segsize=1'] })
  try {
    await migrate(database)
    await prepare(database)
    // No templates: the server would drop them at its first pass anyway (pglite-maintenance.ts),
    // and they are 14 MB less to copy at every first start.
    const client = {
      query: async (text: string) => (await database.unsafe(text)).rows as Record<string, unknown>[],
      exec: (text: string) => database.unsafe(text),
    }
    await dropTemplates(client)
    await database.unsafe('checkpoint')
  } finally {
    await database.close()
  }
  replaceDirectory(building, SEED_DIR)
  writeFileSync(STAMP_FILE, current)
  return true
}
