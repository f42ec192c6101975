import { afterAll, beforeAll, expect, test } from 'bun:test'
import { nested } from '../support/fuzz'
import { createHarness, type Harness } from '../support/harness'
import { provision } from '../support/tenancy'

/**
 * Walks every operation of the published OpenAPI document and sends what a careless or hostile
 * client would: NUL characters, huge and non-finite numbers, wrong JSON kinds, truncated JSON,
 * overlong strings, in path, query and body, with and without credentials. No answer may be 5xx.
 */
let h: Harness
let creds: { token: string; headers: Record<string, string> }
beforeAll(async () => {
  h = await createHarness()
  await signIn()
})
afterAll(() => h.close())

async function signIn() {
  const owner = await h.register()
  const org = await provision(h, owner)
  creds = { token: owner.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
}

type Param = { name: string; in: string; schema?: { type?: string | string[] } }
type Operation = {
  parameters?: Param[]
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string | string[] }> } }> }
  responses?: Record<string, { content?: Record<string, unknown> }>
}

/** A GET answered with an event stream stays open by design (the site feed): its own tests cover it. */
const longLived = (method: string, op: Operation) => method === 'get' && op.responses?.['200']?.content?.['text/event-stream'] !== undefined

const PATH_VALUES = ['%00', crypto.randomUUID(), 'x'.repeat(600), '-1', '1e309', "'%3B drop table x%3B--", '..%2F..%2Fetc']
const QUERY_VALUES = ['%00', '1000000000000000000', '-1', '1e309', 'NaN', 'x'.repeat(3000), 'eq.%00', 'in.(', '%5B%5D']
const RAW_BODIES = ['[{}]', 'null', '"a string"', '5', '{"truncated": "', '{"a":', '\u0000', '{"__proto__": {"x": 1}}']

function wrongValues(type: string | string[] | undefined): unknown[] {
  const kind = Array.isArray(type) ? type[0] : type
  if (kind === 'integer' || kind === 'number') return [1e300, -1e18, 1.5, '12', null, { n: 1 }]
  if (kind === 'boolean') return ['true', 0, null]
  if (kind === 'array') return [[{ a: '\u0000' }], 'x', Array.from({ length: 2000 }, () => 'x')]
  if (kind === 'object') return [[], 'x', { nested: '\u0000' }]
  return ['\u0000', 'a\u0000b', 'x'.repeat(100_000), { not: 'a string' }, 12, null, '\ud800']
}

function bodiesFor(op: Operation): string[] {
  const props = op.requestBody?.content?.['application/json']?.schema?.properties ?? {}
  const bodies = [...RAW_BODIES]
  for (const [name, schema] of Object.entries(props)) {
    for (const value of wrongValues(schema.type)) bodies.push(JSON.stringify({ [name]: value }))
  }
  return bodies
}

test('no operation answers 5xx to hostile input, with or without credentials', async () => {
  const doc = (await h.call('GET', '/openapi/json')).body as { paths: Record<string, Record<string, Operation>> }
  const failures: string[] = []
  let sent = 0
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (longLived(method, op)) continue
      const params = op.parameters ?? []
      const paths = PATH_VALUES.map((v) => template.replace(/\{[^}]+\}/g, v))
      const queries = params.filter((p) => p.in === 'query').flatMap((p) => QUERY_VALUES.map((v) => `${p.name}=${v}`))
      const requests: { path: string; body?: string }[] = [
        ...paths.map((path) => ({ path })),
        ...queries.map((q) => ({ path: `${paths[1]}?${q}` })),
        ...(op.requestBody ? bodiesFor(op).map((body) => ({ path: paths[1]!, body })) : []),
      ]
      for (const { path, body } of requests) {
        for (const withCreds of [false, true]) {
          const res = await h.call(method.toUpperCase(), path, {
            ...(withCreds ? creds : {}),
            ...(body !== undefined ? { body, headers: { ...(withCreds ? creds.headers : {}), 'content-type': 'application/json' } } : {}),
          })
          sent++
          if (res.status >= 500) failures.push(`${method.toUpperCase()} ${path.slice(0, 120)} ${body?.slice(0, 80) ?? ''} → ${res.status}`)
        }
      }
      // Some operations end the session (revoke-all, change-password): sign in again for the next.
      if ((await h.call('GET', '/auth/me', { token: creds.token })).status !== 200) await signIn()
    }
  }
  expect(sent).toBeGreaterThan(2000)
  expect(failures).toEqual([])
}, 120_000)
const LONE_SURROGATE_BODIES = ['{"name":"x\\ud800y"}', '{"name":"\\udc00"}', '{"x\\uDBFFkey":1}', '{"a":{"b":["ok","\\ud83d"]}}', '{"a":"\\ud83d\\u0041"}']
const LONE_SURROGATE_QUERIES = ['x%ED%A0%80y', '%ed%bf%bf', 'eq.%ED%B0%80']
const TOO_DEEP = `{"a":${'['.repeat(9_999)}${']'.repeat(9_999)}}`

test('every operation refuses lone surrogates (body and query) and JSON nested deeper than 64 with 400 validation_failed', async () => {
  const doc = (await h.call('GET', '/openapi/json')).body as { paths: Record<string, Record<string, Operation>> }
  const failures: string[] = []
  let operations = 0
  const expectRefused = (what: string, res: { status: number; body: any }, message: RegExp) => {
    if (res.status !== 400 || res.body?.error?.code !== 'validation_failed' || !message.test(res.body.error.message)) {
      failures.push(`${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`)
    }
  }
  for (const [template, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (longLived(method, op)) continue
      operations++
      const verb = method.toUpperCase()
      const path = template.replace(/\{[^}]+\}/g, crypto.randomUUID())
      const name = op.parameters?.find((p) => p.in === 'query')?.name ?? 'q'
      for (const value of LONE_SURROGATE_QUERIES) {
        expectRefused(`${verb} ${path}?${name}=${value}`, await h.call(verb, `${path}?${name}=${value}`), /lone surrogate/)
      }
      if (method === 'get' || method === 'head') continue
      const json = (body: string) => h.call(verb, path, { body, headers: { 'content-type': 'application/json' } })
      for (const body of LONE_SURROGATE_BODIES) expectRefused(`${verb} ${path} ${body}`, await json(body), /lone surrogate/)
      expectRefused(`${verb} ${path} nested 10,000 deep (arrays)`, await json(TOO_DEEP), /nested deeper than 64/)
      expectRefused(`${verb} ${path} nested 10,000 deep (objects)`, await json(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`), /nested deeper than 64/)
      expectRefused(`${verb} ${path} nested 65 deep`, await json(nested(65)), /nested deeper than 64/)
      // 64 levels pass the parser: the route may still refuse the body (schema, credentials), never as too deep.
      const atLimit = await json(nested(64))
      if (atLimit.status >= 500 || /nested deeper/.test(atLimit.body?.error?.message ?? ''))
        failures.push(`${verb} ${path} nested 64 deep → ${atLimit.status} ${JSON.stringify(atLimit.body).slice(0, 160)}`)
    }
  }
  expect(operations).toBeGreaterThan(100)
  expect(failures).toEqual([])
}, 120_000)

test('the depth limit counts arrays and objects, not brackets inside strings', async () => {
  expect(
    nested(64)
      .split('')
      .filter((c) => c === '{' || c === '[').length,
  ).toBe(64)
  // Brackets in strings, an escaped backslash before `ud800` (text, not an escape), a surrogate pair: all fine.
  const body = JSON.stringify({ email: `${'[[[[{{{{'.repeat(20)}@example.test`, password: '\\ud800 \ud83d\ude00 is text here' })
  expect(body).toContain('\\\\ud800')
  const res = await h.call('POST', '/auth/login', { body })
  expect(res.status).toBe(401)
  expect(res.body.error.code).toBe('invalid_credentials')
})
