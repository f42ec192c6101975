import { afterAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'
import { lockDataDir } from '../../src/platform/lifecycle'

// The command line as an operator runs it: `node bin/ecobase.mjs …` (what `npx ecobase` runs), on an
// embedded DATA_DIR of its own (the command line's database is whatever the environment names).
const ROOT = join(import.meta.dir, '..', '..')
const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-cli-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

function ecobase(args: string[], input?: string) {
  const run = spawnSync('node', [join(ROOT, 'bin', 'ecobase.mjs'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: run.status, out: run.stdout, err: run.stderr }
}

/** Runs `work` against the app on the command line's data directory, as the server would open it. */
async function withApp<T>(work: (app: ReturnType<typeof createApp>) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
  const database = await openDatabase(config)
  try {
    return await work(createApp(buildDeps(config, database)))
  } finally {
    await database.close()
  }
}
const call = async (app: ReturnType<typeof createApp>, method: string, path: string, body?: unknown, token?: string) => {
  const res = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  )
  return { status: res.status, body: await res.json().catch(() => null) }
}

describe('npx ecobase', () => {
  test('help: without a command, usage and exit 2; every command has --help; an unknown one is exit 2', () => {
    const bare = ecobase([])
    expect(bare.code).toBe(2)
    expect(bare.out).toContain('admin create --email E')
    for (const command of [['migrate'], ['admin', 'create'], ['openapi']]) {
      const help = ecobase([...command, '--help'])
      expect(help.code, command.join(' ')).toBe(0)
      expect(help.out).toStartWith(`ecobase ${command.join(' ')}`)
    }
    const unknown = ecobase(['backflip'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('unknown command "backflip"')
    expect(ecobase(['admin', 'create', '--mail', 'x']).code).toBe(2)
  }, 60_000)

  test('migrate brings a new data directory up to date; a data directory a server holds is refused with exit 1', () => {
    const done = ecobase(['migrate'])
    expect(done.code, done.err).toBe(0)
    expect(done.out).toContain('migrations applied (embedded')
    const held = lockDataDir(dataDir, () => {})
    try {
      const refused = ecobase(['migrate'])
      expect(refused.code).toBe(1)
      expect(refused.err).toContain('is in use by another Ecobase process')
    } finally {
      held.release()
    }
  }, 60_000)

  test('admin create makes a platform admin who signs in with the password from stdin; again it changes nothing; an unknown e-mail without a password is exit 1', async () => {
    const created = ecobase(['admin', 'create', '--email', 'Root@Example.test', '--password-stdin'], 'a-strong-password\n')
    expect(created.code, created.err).toBe(0)
    expect(created.out.trim()).toBe('created Root@Example.test as a platform admin')
    expect(ecobase(['admin', 'create', '--email', 'root@example.test']).out.trim()).toBe('root@example.test was already a platform admin')
    const missing = ecobase(['admin', 'create', '--email', 'nobody@example.test'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('give its password with --password-stdin')
    const short = ecobase(['admin', 'create', '--email', 'short@example.test', '--password-stdin'], 'short\n')
    expect(short.code).toBe(1)

    await withApp(async (app) => {
      const login = await call(app, 'POST', '/auth/login', { email: 'root@example.test', password: 'a-strong-password' })
      expect(login.status).toBe(200)
      expect(login.body.user.capabilities).toEqual(['admin'])
      // Someone who registered first is promoted, not recreated.
      const later = await call(app, 'POST', '/auth/register', { email: 'later@example.test', password: 'another-password', name: 'Later' })
      expect(later.body.user.capabilities).toEqual([])
    })
    expect(ecobase(['admin', 'create', '--email', 'later@example.test']).out.trim()).toBe('later@example.test is now a platform admin')
    await withApp(async (app) => {
      const login = await call(app, 'POST', '/auth/login', { email: 'later@example.test', password: 'another-password' })
      expect(login.body.user.capabilities).toEqual(['admin'])
      const audit = await call(app, 'GET', '/audit/events?action=settings.admin.granted', undefined, login.body.token)
      expect(audit.body.items.map((e: { actor: { type: string; id: string } }) => `${e.actor.type}:${e.actor.id}`)).toEqual(['system:cli', 'system:cli'])
    })
  }, 60_000)

  test('openapi writes the document the server serves', () => {
    const out = join(dataDir, 'openapi.json')
    expect(ecobase(['openapi', '--out', out]).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))
  }, 60_000)
})
