import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dir, '..', '..')
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-boot-'))
  dirs.push(dir)
  return dir
}

function start(env: Record<string, string>) {
  return Bun.spawn([process.execPath, 'src/index.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', JOBS: 'off', HOST: '127.0.0.1', ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  })
}

async function untilHealthy(port: number, proc: Bun.Subprocess, ms = 20_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`)
      if (res.ok) return
    } catch {}
    await Bun.sleep(50)
  }
  throw new Error('server did not become healthy')
}

const freePort = () => {
  const s = Bun.serve({ port: 0, fetch: () => new Response() })
  const port = s.port!
  s.stop(true)
  return port
}

describe('boot', () => {
  test.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'DATABASE_URL'],
  ])('a bad value %j stops boot with one line naming the variable and a non-zero exit', async (env, name) => {
    const proc = start({ DATA_DIR: tempDir(), ...env })
    const code = await proc.exited
    const stderr = await new Response(proc.stderr).text()
    expect(code).not.toBe(0)
    const lines = stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(name)
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
})
