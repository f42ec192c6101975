import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHarness, type Harness } from '../support/harness'

// @ecobase/client as a front-end project gets it: packed with `npm pack` (which builds it),
// installed from the tarball into a fresh project with a stock Vite tsconfig, type-checked there
// and run against the app.

const repo = join(import.meta.dir, '..', '..')
const TSC = {
  'TypeScript 7 (the repo)': join(repo, 'node_modules', '.bin', 'tsc'),
  'TypeScript 5.9 (tools/)': join(repo, 'tools', 'node_modules', '.bin', 'tsc'),
}

/** create-vite's react-ts tsconfig.app.json, as a new project gets it. */
const VITE_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    useDefineForClassFields: true,
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    types: [],
    skipLibCheck: true,
    moduleResolution: 'bundler',
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    moduleDetection: 'force',
    noEmit: true,
    jsx: 'react-jsx',
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    erasableSyntaxOnly: true,
    noFallthroughCasesInSwitch: true,
    noUncheckedSideEffectImports: true,
  },
  include: ['src'],
}

/** What a front end writes: only the package's exports, typed fields, no `any`. */
const APP = `import { createClient, EcobaseError, apiError, type Conversation, type ErrorCode, type Tokens, type User } from '@ecobase/client'

export async function run(baseUrl: string, fetch: (request: Request) => Promise<Response>) {
  let saved: Tokens | null = null
  const client = createClient({ baseUrl, fetch: (input, init) => fetch(new Request(input, init)), onTokens: (t) => { saved = t } })
  const email = \`pkg-\${crypto.randomUUID()}@example.test\`
  const signUp = await client.register({ email, password: 'a-long-password', name: 'Package' })
  if (signUp.error) throw apiError(signUp)!
  const me: User | null = (await client.api.auth.me.get()).data
  const provisioned = await client.api.registry.organizations.post({ slug: \`pkg-\${crypto.randomUUID().slice(0, 8)}\`, name: 'Package Org' })
  if (provisioned.error) throw apiError(provisioned)!
  client.setEcosystem(provisioned.data.ecosystem.id)
  const created = await client.api.chat.conversations.post({ title: 'From the package' })
  const listed = await client.api.chat.conversations.get({ query: { pageSize: 5 } })
  const conversations: Conversation[] = listed.data?.items ?? []
  const missing = apiError(await client.api.chat.conversations({ id: crypto.randomUUID() }).get())
  const code: ErrorCode | undefined = missing?.code
  return {
    email: me?.email,
    kept: saved !== null,
    createdTitle: created.data?.title,
    titles: conversations.map((c) => c.title),
    total: listed.data?.total,
    missing: missing instanceof EcobaseError ? { status: missing.status, code } : null,
  }
}
`

/** Mistakes the package's types must catch. */
const MISTAKES = `import { createClient } from '@ecobase/client'

const client = createClient({ baseUrl: '/api' })
export async function wrong() {
  await client.register({ email: 'a@b.test', password: 'x' }) // error: name is missing
  const { data } = await client.api.auth.me.get()
  data?.emial // error: no such field
  await client.api.chat.conversations.post({ title: 42 }) // error: title is a string
}
`

let h: Harness
let project: string
let packed: string
beforeAll(async () => {
  h = await createHarness()
  project = mkdtempSync(join(tmpdir(), 'ecobase-client-package-'))
  const pack = spawnSync('npm', ['pack', '--pack-destination', project, '--silent'], { cwd: join(repo, 'client'), encoding: 'utf8' })
  if (pack.status !== 0) throw new Error(`npm pack failed:\n${pack.stdout}${pack.stderr}`)
  packed = readdirSync(project).find((f) => f.endsWith('.tgz'))!
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'front-end', private: true, type: 'module' }))
  const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', `./${packed}`], { cwd: project, encoding: 'utf8' })
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stdout}${install.stderr}`)
}, 180_000)
afterAll(async () => {
  await h.close()
  rmSync(project, { recursive: true, force: true })
})

function typecheck(tsc: string, source: string, options: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(project, 'check-'))
  Bun.spawnSync(['mkdir', '-p', join(dir, 'src')])
  writeFileSync(join(dir, 'src', 'main.ts'), source)
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...VITE_TSCONFIG, compilerOptions: { ...VITE_TSCONFIG.compilerOptions, ...options } }))
  const run = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

describe('@ecobase/client, packed and installed into a fresh project', () => {
  test('the tarball holds the bundle, one .d.ts, the README and package.json, and no source or server code', () => {
    const list = spawnSync('tar', ['-tzf', join(project, packed)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')
      .sort()
    expect(list).toEqual(['package/README.md', 'package/dist/index.d.ts', 'package/dist/index.js', 'package/dist/index.js.map', 'package/package.json'])
    const pkg = require(join(project, 'node_modules', '@ecobase', 'client', 'package.json'))
    expect(pkg).toMatchObject({
      name: '@ecobase/client',
      sideEffects: false,
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
    })
    expect(pkg.dependencies).toBeUndefined()
  })

  for (const [version, tsc] of Object.entries(TSC)) {
    test(`a stock Vite tsconfig type-checks an app using it, with ${version}, and with skipLibCheck off`, () => {
      for (const options of [{}, { skipLibCheck: false }]) {
        const result = typecheck(tsc, APP, options)
        expect(result.output).toBe('')
        expect(result.status).toBe(0)
      }
    }, 120_000)

    test(`the types catch mistakes (${version})`, () => {
      const result = typecheck(tsc, MISTAKES)
      expect(result.status).not.toBe(0)
      const lines = [...result.output.matchAll(/main\.ts\((\d+),/g)].map((m) => Number(m[1]))
      expect([...new Set(lines)]).toEqual([5, 7, 8])
    }, 120_000)
  }

  test('the installed package runs against the app: sign up, typed calls in an ecosystem, a typed error', async () => {
    writeFileSync(join(project, 'app.ts'), APP)
    const { run } = await import(join(project, 'app.ts'))
    const result = await run('http://localhost', (request: Request) => h.app.handle(request))
    expect(result).toEqual({
      email: expect.stringMatching(/^pkg-.*@example\.test$/),
      kept: true,
      createdTitle: 'From the package',
      titles: ['From the package'],
      total: 1,
      missing: { status: 404, code: 'not_found' },
    })
  })
})
