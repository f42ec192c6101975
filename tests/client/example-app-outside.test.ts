import { afterAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

// examples/vite-react as its README has a front-end engineer use it: copied out of this repository,
// where nothing resolves from the repository's node_modules, its own dependencies and the packed
// client installed with npm, then type-checked by its own `npm run typecheck`.
const repo = join(import.meta.dir, '..', '..')
const copy = mkdtempSync(join(tmpdir(), 'ecobase-example-outside-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

test('examples/vite-react copied out of the repository installs with npm and its README type-check passes', () => {
  cpSync(join(repo, 'examples', 'vite-react'), copy, { recursive: true, filter: (src) => !/[/\\](dist|node_modules)$/.test(src) })
  const pack = spawnSync('npm', ['pack', '--pack-destination', copy, '--silent'], { cwd: join(repo, 'client'), encoding: 'utf8' })
  expect(pack.status, `${pack.stdout}${pack.stderr}`).toBe(0)
  const tarball = readdirSync(copy).find((f) => f.endsWith('.tgz'))!
  // Node and npm only: the system PATH, without the repository's node_modules/.bin (where tsc is).
  const env = { ...process.env, PATH: `${dirname(spawnSync('which', ['node'], { encoding: 'utf8' }).stdout.trim())}:/usr/bin:/bin` }
  const npm = (args: string[]) => spawnSync('npm', args, { cwd: copy, env, encoding: 'utf8', timeout: 170_000 })
  const install = npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${tarball}`])
  expect(install.status, `${install.stdout}${install.stderr}`).toBe(0)
  const typecheck = npm(['run', 'typecheck'])
  expect(typecheck.status, `${typecheck.stdout}${typecheck.stderr}`).toBe(0)
}, 180_000)
