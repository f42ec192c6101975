import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { createHarness, type Harness } from './support/harness'

// The OpenAPI document teaches by example: a body's or answer's TypeBox model names `examples`,
// and the document's media types show the first one. Every example is checked against its model,
// and tests/openapi-tour.test.ts sends them to the service.

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const doc = JSON.parse(readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8'))
const media = (method: string, path: string) => {
  const op = doc.paths[path][method]
  const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s))!
  return { request: op.requestBody?.content?.['application/json']?.example, response: op.responses[success].content?.['application/json']?.example }
}

/** The quick start (docs/api/client.md, examples/vite-react): the calls a new front end makes first. */
const QUICK_START: [string, string][] = [
  ['post', '/auth/register'],
  ['post', '/auth/login'],
  ['post', '/registry/organizations'],
  ['post', '/customer/resolve'],
  ['post', '/customer/token'],
  ['post', '/chat/conversations'],
]

/** Every schema object under `schema` (properties, items, unions) that names examples. */
function withExamples(schema: unknown, found: TSchema[] = []): TSchema[] {
  if (Array.isArray(schema)) for (const s of schema) withExamples(s, found)
  else if (schema && typeof schema === 'object') {
    const record = schema as Record<string, unknown>
    if (Array.isArray(record.examples) && (record.type || record.anyOf)) found.push(record as TSchema)
    for (const key of ['properties', 'items', 'anyOf', 'allOf', 'oneOf'])
      if (record[key]) withExamples(key === 'properties' ? Object.values(record[key] as object) : record[key], found)
  }
  return found
}

describe('examples in the OpenAPI document', () => {
  test('every example a route’s body or answer names is valid for its model', () => {
    const schemas = new Set<TSchema>()
    for (const route of h.app.routes) {
      const hooks = route.hooks as { body?: unknown; response?: Record<string, unknown> }
      for (const s of withExamples(hooks.body)) schemas.add(s)
      for (const answer of Object.values(hooks.response ?? {})) for (const s of withExamples(answer)) schemas.add(s)
    }
    expect(schemas.size).toBeGreaterThanOrEqual(10)
    for (const schema of schemas)
      for (const example of schema.examples as unknown[])
        expect({ title: schema.title, errors: [...Value.Errors(schema, example)].map((e) => `${e.path} ${e.message}`) }).toEqual({
          title: schema.title,
          errors: [],
        })
  })

  test('every request body shows an example, in each of its media types', () => {
    const missing: string[] = []
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (media.example === undefined) missing.push(`${method} ${path} ${type}`)
      }
    }
    expect(missing).toEqual([])
  })

  test('every JSON success answer shows an example', () => {
    const missing: string[] = []
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, answer] of Object.entries(op.responses)) {
          const json = answer.content?.['application/json']
          if (/^2\d\d$/.test(status) && json && json.example === undefined) missing.push(`${method} ${path} ${status}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  test('the quick start’s operations show a request example and an answer example', () => {
    for (const [method, path] of QUICK_START) {
      const { request, response } = media(method, path)
      expect({ path, request: request !== undefined, response: response !== undefined }).toEqual({ path, request: true, response: true })
    }
  })
})
