import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { loadConfig, openDatabase } from '../../src/boot'
import { queryRows } from '../../src/platform/db'

// The embedded database as boot opens it: PGLITE_SHARED_BUFFERS sizes PostgreSQL's page cache.
const root = mkdtempSync(join(tmpdir(), 'ecobase-pglite-settings-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const sharedBuffers = async (env: Record<string, string>) => {
  const database = await openDatabase(loadConfig({ DATA_DIR: join(root, String(Object.keys(env).length)), LOG_LEVEL: 'silent', DB_DEBUG: '1', ...env }))
  try {
    return (await queryRows<{ shared_buffers: string }>(database.db, sql`show shared_buffers`))[0]!.shared_buffers
  } finally {
    await database.close()
  }
}

test('PGlite runs with 16MB of shared buffers unless PGLITE_SHARED_BUFFERS says otherwise', async () => {
  expect(await sharedBuffers({})).toBe('16MB')
  expect(await sharedBuffers({ PGLITE_SHARED_BUFFERS: '24MB' })).toBe('24MB')
})
