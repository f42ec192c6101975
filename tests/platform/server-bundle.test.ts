import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { type BundleManifest, buildServerBundle, freshServerBundle, SERVER_BUNDLE_DIR } from '../../src/bundle'
import { LOADED_AT_FIRST_USE } from '../support/lazy-packages'
import { cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'

// `npm start` runs the server as one bundle with its bytecode (src/bundle.ts, about 200 ms off a
// start: bench/README.md, P7) only while every file it was built from is unchanged.

afterAll(cleanUp)

describe('the server bundle', () => {
  let dir: string
  let manifest: BundleManifest
  beforeAll(async () => {
    dir = join(tempDir(), 'server')
    manifest = await buildServerBundle(dir)
  }, 60_000)

  const tampered = (change: (m: BundleManifest) => void) => {
    const copy = structuredClone(manifest)
    change(copy)
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(copy))
    return freshServerBundle(dir)
  }

  test('is run while every file it was built from is unchanged, and not once one changed, went away, or Bun or the checkout differ', () => {
    expect(freshServerBundle(dir)).toBe(join(dir, 'main.js'))
    const config = manifest.inputs.findIndex(([path]) => path === 'src/config.ts')
    expect(config).toBeGreaterThanOrEqual(0)
    expect(tampered((m) => (m.inputs[config]![2] -= 1000))).toBeNull()
    expect(tampered((m) => (m.inputs[config]![1] += 1))).toBeNull()
    expect(tampered((m) => m.inputs.push(['src/gone.ts', 1, 1]))).toBeNull()
    expect(tampered((m) => (m.bun = '1.0.0'))).toBeNull()
    expect(tampered((m) => (m.root = '/elsewhere'))).toBeNull()
    expect(tampered(() => {})).toBe(join(dir, 'main.js'))
    writeFileSync(join(dir, 'manifest.json'), '{')
    expect(freshServerBundle(dir)).toBeNull()
    expect(freshServerBundle(join(dir, 'none'))).toBeNull()
  })

  test('holds the server and its packages, but not PGlite, argon2 or an SDK a start does not load', () => {
    const packages = new Set(manifest.inputs.flatMap(([path]) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []))
    expect(manifest.inputs.map(([path]) => path)).toContain('src/app.ts')
    expect(packages).toContain('elysia')
    expect(packages).toContain('pg-boss')
    for (const name of ['@electric-sql/pglite', '@node-rs/argon2', ...LOADED_AT_FIRST_USE]) expect(packages).not.toContain(name)
  })
})

describe('npm start', () => {
  const listening = async (proc: Bun.Subprocess) => {
    proc.kill('SIGTERM')
    expect(await proc.exited).toBe(0)
    const line = (await new Response(proc.stdout as ReadableStream).text()).split('\n').find((l) => l.includes('ecobase listening'))
    return JSON.parse(line!)
  }

  test('runs the fresh bundle, which serves like the sources; SERVER_BUNDLE=off runs the sources', async () => {
    await buildServerBundle()
    expect(freshServerBundle()).toBe(join(SERVER_BUNDLE_DIR, 'main.js'))
    const dataDir = tempDir()
    for (const [env, code] of [
      [{}, 'bundle'],
      [{ SERVER_BUNDLE: 'off' }, 'sources'],
    ] as const) {
      const port = freePort()
      const proc = start({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...env })
      await untilHealthy(port, proc)
      const email = `${code}@example.test`
      const reg = await fetch(`http://127.0.0.1:${port}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'bundle-password', name: code }),
      })
      expect(reg.status).toBe(201)
      const me = await fetch(`http://127.0.0.1:${port}/auth/me`, { headers: { authorization: `Bearer ${(await reg.json()).token}` } })
      expect((await me.json()).email).toBe(email)
      expect(await listening(proc)).toMatchObject({ code, database: 'embedded PGlite (DATA_DIR)' })
    }
  }, 90_000)
})
