import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderOpenApi } from '../src/platform/openapi'
import { createHarness, type Harness } from './support/harness'

let h: Harness
let doc: any
beforeAll(async () => {
  h = await createHarness()
  doc = JSON.parse(await renderOpenApi(h.app))
})
afterAll(() => h.close())

describe('OpenAPI document', () => {
  test('matches the committed openapi.json (run `npm run openapi` after changing routes)', async () => {
    const committed = readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8')
    expect(await renderOpenApi(h.app)).toBe(committed)
  })

  test('is OpenAPI 3.1 with version 0.0.0 and a human UI', async () => {
    expect(doc.openapi).toStartWith('3.1')
    expect(doc.info.version).toBe('0.0.0')
    const ui = await h.app.handle(new Request('http://localhost/openapi'))
    expect(ui.status).toBe(200)
    expect(ui.headers.get('content-type')).toContain('text/html')
  })

  test('every operation has a spec tag, a unique operationId and typed responses for each status', () => {
    const specTags = new Set(doc.tags.map((t: { name: string }) => t.name))
    const ids = new Set<string>()
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method.toUpperCase()} ${path}`
        expect(op.tags?.length, where).toBe(1)
        expect(specTags.has(op.tags[0]), `${where} tag ${op.tags[0]}`).toBe(true)
        expect(typeof op.operationId, where).toBe('string')
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
    expect(doc.paths['/chat/conversations'].get.responses['200'].content['application/json'].schema.properties.total).toEqual({ type: 'integer' })
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        if (!op.requestBody) continue
        const types = Object.keys(op.requestBody.content).sort()
        const expected = path.startsWith('/api/') && path !== '/api/oauth/authorize' ? ['application/json', 'application/x-www-form-urlencoded'] : ['application/json']
        expect(types, `${method.toUpperCase()} ${path}`).toEqual(expected)
      }
    }
  })
})
