import { afterAll, beforeAll, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

// The list filters as the typed client (client/, Eden treaty over client/schema) and an
// openapi-typescript + openapi-fetch user type them: each snippet must type-check with TypeScript
// 5.9 under --strict, and each `@ts-expect-error` must meet an error (else TS2578 fails the check).

const root = join(import.meta.dir, '..', '..')
const tools = join(root, 'tools')
const bin = (pkg: string, file: string) => join(tools, 'node_modules', pkg, file)

const EDEN = `import { createClient } from ${JSON.stringify(join(root, 'client', 'index'))}

const client = createClient({ baseUrl: 'http://localhost' })
export async function documents() {
  const found = await client.api.data.documents.get({ query: { title: 'ilike.*plan*' } })
  const titles: string[] = found.data?.items.map((d) => d.title) ?? []
  await client.api.data.documents.get({
    query: { title: ['not.in.("a,b",c)'][0], or: '(title.eq.a,and(createdAt.gt.2026-01-01,title.like.*x*))', and: '(title.not.is.null)', order: 'title.desc.nullslast', select: 'id,title', page: 1 },
  })
  await client.api.data.document_blocks.get({ query: { blockType: 'in.(heading,quote)', documentId: 'eq.x' } })
  await client.api.contract.contracts({ name: 'tasks' }).rows.get({ query: { order: 'createdAt.desc', or: '(done.is.true,due.lt.2026-01-01)', and: '(a.eq.1)', select: 'title', pageSize: 10 } })
  // @ts-expect-error not a filterable field of documents
  await client.api.data.documents.get({ query: { titel: 'eq.x' } })
  // @ts-expect-error a filter is a string
  await client.api.data.documents.get({ query: { title: 42 } })
  // @ts-expect-error or is a string
  await client.api.data.documents.get({ query: { or: ['title.eq.a'] } })
  return titles
}
`

const FETCH = `import createClient from 'openapi-fetch'
import type { paths } from './schema'

const client = createClient<paths>({ baseUrl: 'http://localhost' })
export async function documents() {
  const found = await client.GET('/data/documents', { params: { query: { title: 'ilike.*plan*', or: '(title.eq.a,title.eq.b)', order: 'title.desc', select: 'id,title' } } })
  const titles: string[] = found.data?.items.map((d) => d.title) ?? []
  await client.GET('/contract/contracts/{name}/rows', { params: { path: { name: 'tasks' }, query: { order: 'createdAt.desc', and: '(a.eq.1)', select: 'title' } } })
  // @ts-expect-error not a filterable field of documents
  await client.GET('/data/documents', { params: { query: { titel: 'eq.x' } } })
  // @ts-expect-error a filter is a string
  await client.GET('/data/documents', { params: { query: { title: 42 } } })
  return titles
}
`

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ecobase-filter-types-'))
  const run = spawnSync(process.execPath, [bin('openapi-typescript', 'bin/cli.js'), join(root, 'openapi.json'), '-o', join(dir, 'schema.ts')], {
    encoding: 'utf8',
  })
  if (run.status !== 0) throw new Error(`openapi-typescript exited ${run.status}:\n${run.stdout}${run.stderr}`)
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(dirname(Bun.resolveSync('openapi-fetch/package.json', tools)), join(dir, 'node_modules', 'openapi-fetch'), 'dir')
  writeFileSync(join(dir, 'eden.ts'), EDEN)
  writeFileSync(join(dir, 'fetch.ts'), FETCH)
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'Bundler',
    lib: ['ES2022', 'DOM'],
    types: [],
    skipLibCheck: true,
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['eden.ts', 'fetch.ts'] }))
}, 120_000)
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test(
  'filters, or/and, order and select type-check on the typed client and on openapi-typescript types; mistakes do not',
  () => {
    const run = spawnSync(process.execPath, [bin('typescript', 'bin/tsc'), '-p', dir, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' })
    expect(`${run.stdout}${run.stderr}`).toBe('')
    expect(run.status).toBe(0)
  },
  { timeout: 120_000 },
)
