import { afterAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

// A front-end engineer who takes client/ out of this repository builds and packs it with npm alone:
// no Bun on the PATH, nothing from the repository's node_modules.
const repo = join(import.meta.dir, '..', '..')
const copy = mkdtempSync(join(tmpdir(), 'ecobase-client-outside-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

test('client/ copied out of the repository installs and packs with npm alone, into a self-contained package', () => {
  cpSync(join(repo, 'client'), copy, { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$/.test(src) && !src.endsWith('.tgz') })
  // Node and npm only: the system PATH, without the repository's node_modules/.bin (where bun is).
  const env = { ...process.env, PATH: `${dirname(spawnSync('which', ['node'], { encoding: 'utf8' }).stdout.trim())}:/usr/bin:/bin` }
  const npm = (args: string[]) => spawnSync('npm', args, { cwd: copy, env, encoding: 'utf8', timeout: 170_000 })
  expect(spawnSync('bun', ['--version'], { env }).error, 'bun must not be reachable here').toBeDefined()
  const install = npm(['install', '--prefer-offline', '--no-audit', '--no-fund'])
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0)
  const pack = npm(['pack', '--silent'])
  expect(pack.status, `${pack.stdout}${pack.stderr}`).toBe(0)
  const tarball = readdirSync(copy).find((f) => f.endsWith('.tgz'))!
  const listed = spawnSync('tar', ['tzf', tarball], { cwd: copy, encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort()
  expect(listed).toEqual(['package/README.md', 'package/dist/index.d.ts', 'package/dist/index.js', 'package/dist/index.js.map', 'package/package.json'])
  spawnSync('tar', ['xzf', tarball], { cwd: copy })
  const js = readFileSync(join(copy, 'package', 'dist', 'index.js'), 'utf8')
  const dts = readFileSync(join(copy, 'package', 'dist', 'index.d.ts'), 'utf8')
  // Self-contained: Eden's runtime is bundled in, and the declarations import nothing.
  expect(js).not.toMatch(/^import .* from ['"][^./]/m)
  expect(dts).not.toMatch(/^import /m)
  expect(dts).toContain('createClient')
}, 180_000)
