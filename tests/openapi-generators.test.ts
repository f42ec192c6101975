import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createHarness, type Harness } from './support/harness'

// A user of the OpenAPI document, not of this repository: generate types with openapi-typescript,
// write a client against them with openapi-fetch, type-check it with TypeScript 5 and run it.
// The generators live in the `tools` workspace (they need TypeScript 5's compiler API; the project
// itself compiles with TypeScript 7).

const root = join(import.meta.dir, '..')
const tools = join(root, 'tools')
const bin = (pkg: string, file: string) => join(tools, 'node_modules', pkg, file)

/**
 * Reading a stream with a generated client, exactly as docs/api/streams.md shows it: the body as a stream
 * (openapi-fetch's `parseAs: 'stream'`), cut into SSE frames, each typed as the operation's frame
 * schema (`{ event, data }`, a union discriminated by `event`).
 */
const FRAMES = `/** The frames of a text/event-stream body as \`{ event, data }\` (comments and keep-alives skipped). */
export async function* frames<Frame extends { event: string }>(body: ReadableStream<Uint8Array>): AsyncGenerator<Frame> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    buffer += decoder.decode(value, { stream: true }).replace(/\\r\\n?/g, '\\n')
    for (let end = buffer.indexOf('\\n\\n'); end >= 0; end = buffer.indexOf('\\n\\n')) {
      const lines = buffer.slice(0, end).split('\\n')
      buffer = buffer.slice(end + 2)
      const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim()
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\\n')
      if (event) yield { event, data: data ? JSON.parse(data) : null } as unknown as Frame
    }
  }
}
`

/** The client a generator user would write: four areas of the API, every field read through the generated types. */
const CLIENT = `import createClient from 'openapi-fetch'
import type { components, paths } from './schema'
import { frames } from './frames'

export async function run(fetch: (request: Request) => Promise<Response>, baseUrl = 'http://localhost') {
  const client = createClient<paths>({ baseUrl, fetch })
  const suffix = crypto.randomUUID().slice(0, 8)
  const email = \`generated-\${suffix}@example.test\`

  const registered = await client.POST('/auth/register', { body: { email, password: 'pass-word-long', name: 'Generated Client' } })
  if (registered.error) throw new Error(\`register: \${registered.response.status} \${registered.error.error.code}\`)
  const { token, user } = registered.data
  const auth = { Authorization: \`Bearer \${token}\` }

  const me = await client.GET('/auth/me', { headers: auth })
  if (me.error) throw new Error(\`me: \${me.response.status} \${me.error.error.code}\`)

  const provisioned = await client.POST('/registry/organizations', { headers: auth, body: { slug: \`gen-\${suffix}\`, name: 'Generated Org' } })
  if (provisioned.error) throw new Error(\`organization: \${provisioned.response.status} \${provisioned.error.error.code}\`)
  const { organization, ecosystem } = provisioned.data

  const conversations = await client.GET('/chat/conversations', {
    headers: auth,
    params: { header: { 'X-Ecosystem-Id': ecosystem.id }, query: { page: 1, pageSize: 10 } },
  })
  if (conversations.error) throw new Error(\`conversations: \${conversations.response.status} \${conversations.error.error.code}\`)
  const page = conversations.data

  const eco = { header: { 'X-Ecosystem-Id': ecosystem.id } }
  const created = await client.POST('/chat/conversations', { headers: auth, params: eco, body: { title: 'Streamed' } })
  if (created.error) throw new Error(\`conversation: \${created.response.status} \${created.error.error.code}\`)
  const sent = await client.POST('/chat/conversations/{id}/messages', { headers: auth, params: { ...eco, path: { id: created.data.id } }, body: { message: 'Hello' }, parseAs: 'stream' })
  if (sent.error || !sent.response.body) throw new Error(\`send: \${sent.response.status}\`)
  const events: string[] = []
  let reply = ''
  for await (const frame of frames<components['schemas']['ChatStreamEvent']>(sent.response.body)) {
    events.push(frame.event)
    if (frame.event === 'token') reply += frame.data.text
    else if (frame.event === 'error') throw new Error(frame.data.message)
  }

  return {
    stream: { status: sent.response.status, events: [...new Set(events)], reply },
    register: { status: registered.response.status, id: user.id, email: user.email, name: user.name, refreshToken: registered.data.refreshToken },
    me: { status: me.response.status, id: me.data.id, email: me.data.email, emailVerified: me.data.emailVerified, capabilities: me.data.capabilities },
    organization: {
      status: provisioned.response.status,
      id: organization.id,
      slug: organization.slug,
      ecosystemId: ecosystem.id,
      ecosystemOrganizationId: ecosystem.organizationId,
      teamId: provisioned.data.teamId,
    },
    conversations: {
      status: conversations.response.status,
      titles: page.items.map((conversation) => conversation.title),
      total: page.total,
      page: page.page,
      pageSize: page.pageSize,
    },
  }
}
`

/** Each line marked `// error` must fail the type check, and no other line may. */
const BROKEN = `import createClient from 'openapi-fetch'
import type { paths } from './schema'

const client = createClient<paths>({ baseUrl: 'http://localhost' })

export async function broken() {
  await client.POST('/auth/register', { body: { email: 42, password: 'pass-word-long', name: 'Wrong' } }) // error
  await client.POST('/auth/register', { body: { email: 'a@example.test', password: 'pass-word-long' } }) // error
  const me = await client.GET('/auth/me')
  if (me.data) console.log(me.data.emailVerifed) // error
  await client.GET('/auth/no-such-path', {}) // error
  const page = await client.GET('/chat/conversations', { params: { header: { 'X-Ecosystem-Id': 'eco' } } })
  if (page.data) console.log(page.data.items[0]?.title.toFixed(2)) // error
}
`

let dir: string
let h: Harness
let generated: { stdout: string; stderr: string }

function tsc(project: string) {
  const started = performance.now()
  const run = spawnSync(process.execPath, [bin('typescript', 'bin/tsc'), '-p', project, '--pretty', 'false'], { cwd: dir, encoding: 'utf8' })
  return { status: run.status, output: `${run.stdout}${run.stderr}`, ms: Math.round(performance.now() - started) }
}

beforeAll(
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'ecobase-openapi-generators-'))
    const run = spawnSync(process.execPath, [bin('openapi-typescript', 'bin/cli.js'), join(root, 'openapi.json'), '-o', join(dir, 'schema.ts')], {
      encoding: 'utf8',
    })
    if (run.status !== 0) throw new Error(`openapi-typescript exited ${run.status}:\n${run.stdout}${run.stderr}`)
    generated = { stdout: run.stdout, stderr: run.stderr }

    // openapi-fetch resolves from the temp dir as from a project of its own: node_modules/openapi-fetch
    // links to the installed package, whose own dependencies resolve from where it really lives.
    mkdirSync(join(dir, 'node_modules'))
    symlinkSync(dirname(Bun.resolveSync('openapi-fetch/package.json', tools)), join(dir, 'node_modules', 'openapi-fetch'), 'dir')
    writeFileSync(join(dir, 'client.ts'), CLIENT)
    writeFileSync(join(dir, 'frames.ts'), FRAMES)
    writeFileSync(join(dir, 'broken.ts'), BROKEN)
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
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['client.ts'] }, null, 2))
    writeFileSync(join(dir, 'tsconfig.broken.json'), JSON.stringify({ compilerOptions, files: ['broken.ts'] }, null, 2))

    h = await createHarness()
  },
  { timeout: 120_000 },
)
afterAll(async () => {
  await h?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('third-party generators on openapi.json', () => {
  test('docs/api/streams.md shows the same frame reader the stream test runs', () => {
    expect(readFileSync(join(root, 'docs', 'api', 'streams.md'), 'utf8')).toContain(FRAMES)
  })

  test('openapi-typescript generates named types for paths, operations and component schemas, without complaint', () => {
    expect(generated.stderr).toBe('')
    const schema = readFileSync(join(dir, 'schema.ts'), 'utf8')
    expect(schema).toContain('export interface paths {')
    expect(schema).toContain('"/auth/register": {')
    expect(schema).toContain('authRegister: {')
    expect(schema).toContain('AuthResult: {')
    expect(schema).toContain('"X-Ecosystem-Id"?: components["parameters"]["EcosystemId"];')
  })

  test(
    'an openapi-fetch client written against the types passes tsc --strict (TypeScript 5.9)',
    () => {
      const result = tsc('tsconfig.json')
      expect(result.status, `tsc exited ${result.status} after ${result.ms} ms:\n${result.output}`).toBe(0)
    },
    { timeout: 120_000 },
  )

  test(
    'the same check fails on each deliberate type error, and only there',
    () => {
      const result = tsc('tsconfig.broken.json')
      expect(result.status, result.output).not.toBe(0)
      const marked = BROKEN.split('\n').flatMap((line, i) => (line.endsWith('// error') ? [i + 1] : []))
      const reported = [...new Set([...result.output.matchAll(/^broken\.ts\((\d+),\d+\): error TS\d+/gm)].map((m) => Number(m[1])))]
      expect(reported, result.output).toEqual(marked)
      // Nothing else failed: no missing module, no error in the generated schema or elsewhere.
      expect(
        result.output.split('\n').filter((line) => /error TS/.test(line) && !line.startsWith('broken.ts(')),
        result.output,
      ).toEqual([])
    },
    { timeout: 120_000 },
  )

  test(
    'the client works against the app: register, me, a new organization, its empty conversation list, a chat reply read as typed stream frames',
    async () => {
      const { run } = await import(join(dir, 'client.ts'))
      // As over a socket: in process, a stream's chunks can be strings; on the wire they are bytes.
      const asBytes = async (request: Request) => {
        const res = await h.app.handle(request)
        return [204, 205, 304].includes(res.status) ? res : new Response(await res.arrayBuffer(), res)
      }
      const result = await run(asBytes, 'http://localhost')

      expect(result.register).toMatchObject({ status: 201, email: expect.stringMatching(/^generated-.+@example\.test$/), name: 'Generated Client' })
      expect(result.register.refreshToken).toEqual(expect.any(String))
      expect(result.me).toMatchObject({ status: 200, id: result.register.id, email: result.register.email, emailVerified: false })
      expect(result.me.capabilities).toBeArray()
      expect(result.organization).toMatchObject({ status: 201, slug: expect.stringMatching(/^gen-/), ecosystemOrganizationId: result.organization.id })
      expect(result.organization.ecosystemId).toEqual(expect.any(String))
      expect(result.organization.teamId).toEqual(expect.any(String))
      expect(result.conversations).toEqual({ status: 200, titles: [], total: 0, page: 1, pageSize: 10 })
      expect(result.stream).toMatchObject({ status: 200, events: ['open', 'token', 'done'] })
      expect(result.stream.reply.length).toBeGreaterThan(0)
    },
    { timeout: 120_000 },
  )
})
