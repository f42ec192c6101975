import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { createHarness, type Harness } from './support/harness'

// The OpenAPI document teaches by example: a body's or answer's TypeBox model names `examples`,
// and the document's media types show the first one. Every example is checked against its model,
// and the quick start's calls are sent as their examples show them, in order, to the service.

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const doc = JSON.parse(readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8'))
const media = (method: string, path: string) => {
  const op = doc.paths[path][method]
  const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s))!
  return { request: op.requestBody?.content?.['application/json']?.example, response: op.responses[success].content?.['application/json']?.example, status: Number(success) }
}

/** The quick start (README, examples/vite-react): the calls a new front end makes first. */
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
  if (Array.isArray(schema)) schema.forEach((s) => withExamples(s, found))
  else if (schema && typeof schema === 'object') {
    const record = schema as Record<string, unknown>
    if (Array.isArray(record.examples) && (record.type || record.anyOf)) found.push(record as TSchema)
    for (const key of ['properties', 'items', 'anyOf', 'allOf', 'oneOf']) if (record[key]) withExamples(key === 'properties' ? Object.values(record[key] as object) : record[key], found)
  }
  return found
}

/** The fields of a value, all the way down (an array's from its first object): what a reader of the example relies on. */
function fields(value: unknown): unknown {
  if (Array.isArray(value)) {
    const first = value.find((item) => item && typeof item === 'object')
    return first ? [fields(first)] : []
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, fields((value as Record<string, unknown>)[k])]))
  return '·'
}

describe('examples in the OpenAPI document', () => {
  test('every example a route’s body or answer names is valid for its model', () => {
    const schemas = new Set<TSchema>()
    for (const route of h.app.routes) {
      const hooks = route.hooks as { body?: unknown; response?: Record<string, unknown> }
      withExamples(hooks.body).forEach((s) => schemas.add(s))
      for (const answer of Object.values(hooks.response ?? {})) withExamples(answer).forEach((s) => schemas.add(s))
    }
    expect(schemas.size).toBeGreaterThanOrEqual(10)
    for (const schema of schemas) for (const example of schema.examples as unknown[]) expect({ title: schema.title, errors: [...Value.Errors(schema, example)].map((e) => `${e.path} ${e.message}`) }).toEqual({ title: schema.title, errors: [] })
  })

  test('every request body shows an example, in each of its media types', () => {
    const missing: string[] = []
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>>)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) if (media.example === undefined) missing.push(`${method} ${path} ${type}`)
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

  test('sent in order as their examples show, each is accepted and answers the fields its answer example shows', async () => {
    const [register, login, organization, resolve, token, conversation] = QUICK_START.map(([method, path]) => media(method, path))
    const check = (res: { status: number; body: unknown }, shown: ReturnType<typeof media>) => {
      expect(res.status).toBe(shown.status)
      expect(fields(res.body)).toEqual(fields(shown.response))
    }
    const signedUp = await h.call('POST', '/auth/register', { body: register!.request })
    check(signedUp, register!)
    const signedIn = await h.call('POST', '/auth/login', { body: login!.request })
    check(signedIn, login!)
    const made = await h.call('POST', '/registry/organizations', { token: signedIn.body.token, body: organization!.request })
    check(made, organization!)
    const inEcosystem = { token: signedIn.body.token, headers: { 'x-ecosystem-id': made.body.ecosystem.id } }
    const resolved = await h.call('POST', '/customer/resolve', { ...inEcosystem, body: resolve!.request })
    check(resolved, resolve!)
    // Ids come from the answers before, as a client's would.
    const tokens = await h.call('POST', '/customer/token', { ...inEcosystem, body: { ...token!.request, customerId: resolved.body.customerId } })
    check(tokens, token!)
    check(await h.call('POST', '/chat/conversations', { token: tokens.body.token, body: conversation!.request }), conversation!)
  })
})
