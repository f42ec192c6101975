import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderOpenApi } from '../src/platform/openapi'
import { AppError, PLATFORM_ERRORS } from '../src/platform/errors'
import { CHAT_ERRORS, chatError, errors as chatErrors } from '../src/modules/chat/errors'
import { storageError } from '../src/modules/storage/errors'
import { ERROR_CATALOGUES, ERROR_CODES } from '../src/modules'
import { schemaFiles } from '../client/scripts/schema-types'
import { createHarness, type Harness } from './support/harness'

let h: Harness
let doc: any
beforeAll(async () => {
  h = await createHarness()
  doc = JSON.parse(await renderOpenApi(h.app))
})
afterAll(() => h.close())

/** The schema a `$ref` names (or the schema itself). */
function resolve(schema: any): any {
  if (!schema?.$ref) return schema
  return schema.$ref
    .split('/')
    .slice(1)
    .reduce((node: any, key: string) => node[key], doc)
}

function* operations(): Generator<[string, any]> {
  for (const [path, ops] of Object.entries<any>(doc.paths)) for (const [method, op] of Object.entries<any>(ops)) yield [`${method.toUpperCase()} ${path}`, op]
}

describe('OpenAPI document', () => {
  test('matches the committed openapi.json (run `npm run openapi` after changing routes)', async () => {
    const committed = readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8')
    expect(await renderOpenApi(h.app)).toBe(committed)
  })

  test("the client's types (client/schema/) are generated from the committed document (run `npm run openapi`)", () => {
    const committed = readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8')
    const expected = schemaFiles(JSON.parse(committed))
    const dir = join(import.meta.dir, '..', 'client', 'schema')
    expect(readdirSync(dir).sort()).toEqual(Object.keys(expected).sort())
    for (const [file, text] of Object.entries(expected)) expect(readFileSync(join(dir, file), 'utf8'), file).toBe(text)
  })

  test('is OpenAPI 3.1 with version 0.0.0 and a human UI', async () => {
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info.version).toBe('0.0.0')
    const ui = await h.app.handle(new Request('http://localhost/openapi'))
    expect(ui.status).toBe(200)
    expect(ui.headers.get('content-type')).toContain('text/html')
    // Served by the service from its own npm packages: nothing from a CDN, so it works offline.
    const html = await ui.text()
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    expect(assets.length).toBe(3)
    // The icon is the service's own, at /favicon.ico (tests/platform/web-assets.test.ts); the rest carry a version.
    expect(assets[0]).toBe('favicon.ico')
    for (const asset of assets.slice(1)) {
      const res = await h.app.handle(new Request(`http://localhost/${asset}`))
      expect(res.status, asset).toBe(200)
      expect(res.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable')
    }
    expect((await h.app.handle(new Request('http://localhost/openapi/assets/0.0.0/swagger-ui.css'))).status).toBe(404)
  })

  test('every operation has a spec tag, a unique operationId, a description and typed responses for each status', () => {
    const specTags = new Set(doc.tags.map((t: { name: string }) => t.name))
    const ids = new Set<string>()
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method.toUpperCase()} ${path}`
        expect(op.tags?.length, where).toBe(1)
        expect(specTags.has(op.tags[0]), `${where} tag ${op.tags[0]}`).toBe(true)
        expect(typeof op.operationId, where).toBe('string')
        expect(op.description?.length ?? 0, `${where} has a description beyond its summary`).toBeGreaterThan(20)
        expect(ids.has(op.operationId), `${where} duplicate operationId`).toBe(false)
        ids.add(op.operationId)
        for (const [code, response] of Object.entries<any>(op.responses)) {
          if (code === '204') {
            expect(response.content, `${where} ${code}`).toBeUndefined()
            continue
          }
          if (/^3\d\d$/.test(code)) {
            // A redirect has no body; it must say where it goes.
            expect(response.headers?.Location, `${where} ${code} declares Location`).toBeDefined()
            continue
          }
          const schema = Object.values<any>(response.content ?? {})[0]?.schema
          expect(schema, `${where} ${code} has a schema`).toBeDefined()
          expect(Object.keys(schema).length, `${where} ${code} schema is not {}`).toBeGreaterThan(0)
        }
      }
    }
  })

  test('integers are integers, and bodies are JSON except on the OAuth token endpoints', () => {
    const text = JSON.stringify(doc)
    expect(text).not.toContain('"format":"integer"')
    expect(doc.paths['/auth/tokens'].get.parameters.find((p: any) => p.name === 'page').schema).toMatchObject({ type: 'integer', minimum: 1 })
    expect(resolve(doc.paths['/chat/conversations'].get.responses['200'].content['application/json'].schema).properties.total).toEqual({ type: 'integer' })
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (!op.requestBody) continue
        const types = Object.keys(op.requestBody.content).sort()
        const expected =
          path.startsWith('/api/') && path !== '/api/oauth/authorize' ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json']
        expect(types, `${method.toUpperCase()} ${path}`).toEqual(expected)
      }
    }
  })

  test("lints clean: no error and no warning with Redocly's recommended ruleset", () => {
    const run = spawnSync(join(import.meta.dir, '..', 'node_modules', '.bin', 'redocly'), ['lint', 'openapi.json', '--format=json'], {
      cwd: join(import.meta.dir, '..'),
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    })
    const report = JSON.parse(run.stdout)
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message}`)
    expect(problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })

  test('names its types once: schemas are components used by $ref, the error body among them', () => {
    const schemas = doc.components.schemas
    for (const name of [
      'Error',
      'User',
      'AuthResult',
      'ChatConversation',
      'ChatMessage',
      'StorageAttachment',
      'PersonaMemory',
      'CommunityLeaderboard',
      'SiteFeedItem',
    ]) {
      expect(schemas[name], name).toBeDefined()
    }
    expect(doc.paths['/auth/me'].get.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    // No titled schema is left inline anywhere: a generator would make an anonymous type of it.
    const inline: string[] = []
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== 'object') return
      if (typeof node.title === 'string' && !where.startsWith('components.schemas.')) inline.push(`${where}: ${node.title}`)
      // An example is data (a conversation's `title`), not a schema.
      for (const [key, value] of Object.entries(node)) if (key !== 'example') walk(value, where ? `${where}.${key}` : key)
    }
    walk(doc.paths, 'paths')
    walk(doc.webhooks, 'webhooks')
    expect(inline).toEqual([])
    expect(JSON.stringify(doc).match(/"nullable":(true|false)/g)).toBeNull()
  })

  test('declares X-Ecosystem-Id on every ecosystem-scoped operation, also those with path and query parameters', async () => {
    const ecosystemHeader = { $ref: '#/components/parameters/EcosystemId' }
    expect(doc.components.parameters.EcosystemId).toMatchObject({ in: 'header', name: 'X-Ecosystem-Id', required: false })
    for (const where of [
      'POST /chat/conversations/{id}/messages',
      'GET /storage/attachments/{id}',
      'GET /community/leaderboard',
      'GET /contract/contracts/{name}/rows/{id}',
      'GET /chat/conversations',
    ]) {
      const [method, path] = where.split(' ')
      expect(doc.paths[path!][method!.toLowerCase()].parameters, where).toContainEqual(ecosystemHeader)
    }
    // Account-level operations take no ecosystem.
    for (const where of ['GET /auth/me', 'GET /registry/organizations', 'POST /auth/login']) {
      const [method, path] = where.split(' ')
      expect(doc.paths[path!][method!.toLowerCase()].parameters ?? [], where).not.toContainEqual(ecosystemHeader)
    }
    // What the document promises holds: an account token without the header is told to send it.
    const owner = await h.register()
    const res = await h.call('GET', '/chat/conversations', { token: owner.token })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('ecosystem_required')
  })

  test('public operations say so (security: []), every response declares X-Request-Id, the server and license are named', () => {
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }])
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' })
    expect(doc.components.headers.RequestId.schema).toEqual({ type: 'string' })
    const publicOps: string[] = []
    for (const [where, op] of operations()) {
      expect(Array.isArray(op.security), where).toBe(true)
      if (op.security.length === 0) publicOps.push(where)
      for (const [code, response] of Object.entries<any>(op.responses)) {
        expect(response.headers?.['X-Request-Id'], `${where} ${code}`).toEqual({ $ref: '#/components/headers/RequestId' })
      }
    }
    expect(publicOps).toContain('POST /auth/login')
    expect(publicOps).toContain('GET /health')
    expect(publicOps).not.toContain('GET /auth/me')
    expect(publicOps).not.toContain('GET /chat/conversations')
  })

  test('streams declare text/event-stream with their event schemas, and every published tag has operations and a description', () => {
    for (const [path, schemaName] of [
      ['/chat/conversations/{id}/messages', 'ChatStreamEvent'],
      ['/site/feed/stream', 'SiteFeedStreamEvent'],
    ] as const) {
      const ops = doc.paths[path]
      const op = ops.post ?? ops.get
      expect(Object.keys(op.responses['200'].content), path).toEqual(['text/event-stream'])
      const events = resolve(op.responses['200'].content['text/event-stream'].schema)
      expect(doc.components.schemas[schemaName]).toBe(events)
      expect(events.anyOf.length, path).toBeGreaterThan(1)
    }
    const used = new Set([...operations()].flatMap(([, op]) => op.tags))
    for (const tag of doc.tags) {
      expect(used.has(tag.name), tag.name).toBe(true)
      expect(tag.description?.length, tag.name).toBeGreaterThan(20)
    }
  })

  test('an operation lists the codes its module answers, with their meanings from the catalogue; other statuses stay generic', () => {
    const responses = doc.paths['/chat/conversations/{id}/messages'].post.responses
    for (const code of ['in_progress', 'client_message_id_reused', 'persona_unavailable'] as const) {
      expect(responses['409'].description).toContain(`\`${code}\`: ${CHAT_ERRORS[code]}`)
    }
    expect(responses['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    // A status the route lists without codes stays generic (here an account route, which no tenancy guard describes).
    expect(doc.paths['/auth/me'].get.responses['401'].description).toBe('Response for status 401')
    expect(doc.paths['/storage/attachments/{id}/download'].get.responses['409'].description).toContain('`attachment_pending`')
    expect(doc.paths['/community/categories/{id}'].delete.responses['409'].description).toContain('`category_not_empty`')
    // No marker of the generator's input is left in the document.
    expect(JSON.stringify(doc)).not.toContain('x-error-')
  })

  test("a route that declares a tenant role gets the tenancy guard's responses and role sentence without writing them", () => {
    const list = doc.paths['/monitored_sites/sites'].get
    expect(list.responses['401'].description).toBe(`- \`unauthorized\`: ${PLATFORM_ERRORS.unauthorized}\n- \`token_expired\`: ${PLATFORM_ERRORS.token_expired}`)
    expect(list.responses['403'].description).toBe(`- \`forbidden\`: ${PLATFORM_ERRORS.forbidden}\n- \`mfa_required\`: ${PLATFORM_ERRORS.mfa_required}`)
    expect(list.responses['404'].description).toBe(`\`not_found\`: ${PLATFORM_ERRORS.not_found}`)
    expect(list.responses['400'].description).toContain('`ecosystem_required`')
    expect(list.description).toEndWith('Ecosystem admins and owners.')
    expect(doc.paths['/audit/events'].get.description).toEndWith('Ecosystem admins and owners; without X-Ecosystem-Id, platform admins.')
    // A route's own codes for a status win over the guard's.
    expect(doc.paths['/persona_memory/memories'].post.responses['404'].description).toContain('`persona_not_found`')
    // Said once, also where a route's own description already says it.
    for (const [where, op] of operations()) expect(String(op.description ?? '').split('Ecosystem admins and owners.').length, where).toBeLessThanOrEqual(2)
  })

  test('every code in the Error schema has a meaning in some catalogue, and every catalogue code is listed', () => {
    const listed = (schema: any) => schema.properties.error.properties.code.anyOf[0].enum as string[]
    const codes = listed(doc.components.schemas.Error)
    const meanings = new Map(Object.values<Record<string, string>>(ERROR_CATALOGUES).flatMap((c) => Object.entries(c)))
    for (const code of codes) expect(meanings.get(code)?.length ?? 0, code).toBeGreaterThan(5)
    expect(codes).toEqual([...meanings.keys()].sort())
    expect(codes).toEqual([...ERROR_CODES])
    // A schema that reuses the error object lists the same codes.
    expect(listed(doc.components.schemas.StorageQuotaExceeded)).toEqual(codes)
    // Every code an operation names in a response description is one of them.
    for (const [where, op] of operations()) {
      for (const [status, response] of Object.entries<any>(op.responses)) {
        for (const [, code] of String(response.description).matchAll(/^(?:- )?`([a-z_]+)`: /gm)) expect(codes, `${where} ${status}`).toContain(code!)
      }
    }
  })

  test("AppError codes are type-checked: platform codes anywhere, a module's own codes only through its catalogue", () => {
    const compileOnly = () => {
      // @ts-expect-error a module's code is not a platform code
      new AppError(409, 'in_progress', 'x')
      // @ts-expect-error another area's code
      chatError(409, 'upload_incomplete', 'x')
      // @ts-expect-error a typo
      storageError(409, 'upload_incompleted', 'x')
      // @ts-expect-error a route lists only its area's codes
      chatErrors({ 409: ['attachment_pending'] })
      return [
        new AppError(404, 'not_found', 'x'),
        chatError(404, 'not_found', 'x'),
        chatError(409, 'in_progress', 'x'),
        storageError(409, 'upload_incomplete', 'x'),
      ]
    }
    const made = compileOnly()
    expect(made.every((e) => e instanceof AppError)).toBe(true)
    expect(made.map((e) => e.code)).toEqual(['not_found', 'not_found', 'in_progress', 'upload_incomplete'])
    expect(Object.keys(PLATFORM_ERRORS)).toContain('validation_failed')
  })
})
