import { afterAll, describe, expect, test } from 'bun:test'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'

afterAll(cleanUp)

describe('boot', () => {
  test.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ SERVER_BUNDLE: 'yes' }, 'SERVER_BUNDLE'],
    [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'DATABASE_URL'],
    // A directory under a regular file cannot be made, even by root.
    [{ DATA_DIR: `${import.meta.path}/data` }, 'DATA_DIR'],
    [{ AUTH_SECRET: 'hunter2-short' }, 'AUTH_SECRET (value not shown'],
  ])('a bad value %j stops boot with one line naming the variable and a non-zero exit', async (env, name) => {
    const proc = start({ DATA_DIR: tempDir(), ...env })
    const code = await proc.exited
    const stderr = await new Response(proc.stderr).text()
    expect(code).not.toBe(0)
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(name)
    expect(lines[0]).not.toContain('hunter2')
  })

  test('with no configuration it serves on embedded PGlite, keeps a generated key, and sessions survive a restart', async () => {
    const dataDir = tempDir()
    const port = freePort()
    let proc = start({ DATA_DIR: dataDir, PORT: String(port) })
    try {
      await untilHealthy(port, proc)
      const version = await (await fetch(`http://127.0.0.1:${port}/site/version`)).json()
      expect(version.database).toBe('pglite')
      const reg = await fetch(`http://127.0.0.1:${port}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'boot@example.test', password: 'boot-password', name: 'Boot' }),
      })
      expect(reg.status).toBe(201)
      const { token } = await reg.json()
      expect(statSync(join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600)
      proc.kill('SIGTERM')
      expect(await proc.exited).toBe(0)
      expect(await new Response(proc.stdout).text()).not.toContain('ALLOW_PRIVATE_ADDRESSES')

      proc = start({ DATA_DIR: dataDir, PORT: String(port) })
      await untilHealthy(port, proc)
      const me = await fetch(`http://127.0.0.1:${port}/auth/me`, { headers: { authorization: `Bearer ${token}` } })
      expect(me.status).toBe(200)
      expect((await me.json()).email).toBe('boot@example.test')
    } finally {
      proc.kill()
      await proc.exited
    }
  }, 60_000)

  test('ALLOW_PRIVATE_ADDRESSES=true is said once at boot, as a warning', async () => {
    const port = freePort()
    const proc = start({ DATA_DIR: tempDir(), PORT: String(port), ALLOW_PRIVATE_ADDRESSES: 'true' })
    try {
      await untilHealthy(port, proc)
    } finally {
      proc.kill('SIGTERM')
      await proc.exited
    }
    const lines = (await new Response(proc.stdout).text()).split('\n').filter((line) => line.includes('ALLOW_PRIVATE_ADDRESSES'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn' })
    expect(lines[0]).toContain('never link-local')
  }, 60_000)
})
