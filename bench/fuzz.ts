/**
 * Issue 24: hostile input at scale, in-process through `app.handle` (the app as boot builds it), on
 * embedded PGlite and on PostgreSQL. Not part of `npm test`. Two phases per database:
 *
 * 1. lists: every table-derived list (data, userdata, community) and a contract's rows, as
 *    ecosystem admin and as customer (what tests/security/authenticated-fuzz.test.ts does, at
 *    scale): Object.prototype names as filter and sort keys, lone surrogates, `in.(` unclosed,
 *    10,000-character values, %00, absurd paging, plus seeded random mixes of those; row bodies
 *    with every field mutated, prototype and surrogate keys, deep nesting; garbage row ids.
 * 2. operations: every operation of the app's own `/openapi/json` (the event stream apart): path
 *    parameters as garbage, a uuid of nothing, the caller's own ids and another tenant's; query
 *    parameters as garbage; a valid-shaped body (built from the operation's schema) with each
 *    field replaced by a wrong type, a huge or empty string, null, nested arrays and objects,
 *    out-of-range numbers, NUL, a lone surrogate (as a JSON escape), `__proto__` / `constructor`,
 *    100-deep nesting; malformed Authorization, X-Ecosystem-Id and Content-Type headers. Each
 *    with no credential, the owner's account token (with and without X-Ecosystem-Id, and with
 *    another tenant's), an `eco_` API token and a customer token.
 *
 * A seeded PRNG (`--seed=`) picks the random mixes, so a run sends the same inputs again (ids the
 * server generates apart). Only counts are kept, and the first examples of each distinct 5xx (with
 * the server's own log line for it). Exit 1 when any answer is ≥ 500 or fewer than
 * `--min-requests` (25,000) were sent on a database.
 *
 *   npx bun bench/fuzz.ts [--db=pglite,postgres] [--seed=24] [--list-random=9000] [--min-requests=25000]
 *   npm run bench -- fuzz
 *
 * FUZZ_DEBUG=1 also prints which setup creations the generic valid-body guess could not make.
 *
 * Databases: PGlite, plus PostgreSQL when TEST_DATABASE_URL or BENCH_PG_URL is set (its server
 * holds a throwaway database, dropped afterwards); `--db=` chooses explicitly.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app'
import { DERIVED_RESOURCES } from '../src/modules'
import { buildDeps, prepareDatabase } from '../src/boot'
import { loadConfig } from '../src/config'
import { communityResources } from '../src/modules/community/resources'
import type { ColumnKind } from '../src/platform/crud/query'
import { openPglite, openPostgres } from '../src/platform/db'
import { createLogger } from '../src/platform/logger'
import { FUZZ_CONTRACT_COLUMNS, nested } from '../tests/support/fuzz'
import {
  type Backend,
  benchArgs,
  type BenchCommand,
  cleanup,
  createTempDatabase,
  fmt,
  hookSignals,
  markdownTable,
  PG_ADMIN_URL,
  postgresAvailable,
  printResult,
  type RunInfo,
  runInfo,
} from './support'

export const MIN_REQUESTS = 25_000
const REQUEST_TIMEOUT_MS = 30_000

export interface FuzzOptions {
  backends?: Backend[]
  seed?: number
  /** Random list queries and row requests in phase 1, over all targets and both actors. */
  listRandom?: number
  minRequests?: number
}

type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'timeout'
interface Tally {
  requests: number
  classes: Record<StatusClass, number>
  /** 4xx answers whose body is not `{ error: { code, message } }`. */
  notErrorShape: number
}
interface Example {
  actor: string
  method: string
  path: string
  body?: string
  status: number
  response: string
  log?: string
}
/** One distinct 5xx: status, operation, and the server's error message. */
interface Finding {
  key: string
  count: number
  examples: Example[]
}
interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  durationSec?: number
  operations?: number
  phases?: Record<string, Tally>
  total?: Tally
  findings?: Finding[]
  /** 4xx answers outside the `{ error: { code, message } }` shape, by operation and status: count and an example. */
  notErrorShape?: Record<string, { count: number; example: string }>
  /** How deep the run got: operations whose own-id path could not be filled, and those never answered 2xx. */
  coverage?: { ownPathUnknown: string[]; never2xx: string[] }
}
export interface FuzzResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  seed: number
  minRequests: number
  backends: BackendResult[]
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
type Rng = ReturnType<typeof mulberry32>
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('')
const rngUuid = (rng: Rng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-a${hex(rng, 3)}-${hex(rng, 12)}`

// ---------------------------------------------------------------------------------------------
// Hostile values
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf']

/** JSON texts that replace one field of a valid body. */
const FIELD_VALUES: string[] = [
  '12345',
  '-1',
  '0',
  '1.5',
  '1e308',
  '-1e308',
  '1e999',
  '1e20',
  '9007199254740993',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  'true',
  'false',
  'null',
  '""',
  '" "',
  '"x"',
  '[]',
  '{}',
  '[[[[[[]]]]]]',
  '{"a":{"b":{"c":{"d":{}}}}}',
  '["x",1,null,{},[]]',
  JSON.stringify('x'.repeat(100_000)),
  JSON.stringify('é😀'.repeat(3_000)),
  '"\\u0000"',
  '"a\\u0000b"',
  '"%00"',
  '"\\ud800"',
  '"x\\udfffy"',
  '"\\ud83d"',
  '"\\u202e\\ufeff\\u200b"',
  '"\'; drop table x; --"',
  '"../../etc/passwd"',
  '"2030-13-45T99:99:99Z"',
  '"00000000-0000-0000-0000-000000000000"',
  '"not-a-uuid"',
  '"NaN"',
  '"Infinity"',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '["__proto__"]',
  '"__proto__"',
  '"constructor"',
  nested(100),
  nested(60),
  `[${'1,'.repeat(5_000)}1]`,
  '{"$ref":"#"}',
]
const PATH_GARBAGE = [
  '%00',
  'x'.repeat(600),
  '-1',
  '0',
  '1e309',
  'NaN',
  "'%3B%20drop%20table%20x%3B--",
  '..%2F..%2Fetc%2Fpasswd',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '__proto__',
  'constructor',
  'toString',
  'null',
  '%20',
  'in.(',
  '00000000-0000-0000-0000-000000000000',
  '123e4567-e89b-12d3-a456-42661417400',
  'a'.repeat(64),
  '%FF%FE',
  '%25',
  'A1B2C3D4-E5F6-4789-ABCD-EF0123456789',
]
const QUERY_GARBAGE = [
  '%00',
  '',
  '1000000000000000000',
  '99999999999999999999999',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '1.5',
  'x'.repeat(10_000),
  'eq.%00',
  'in.(',
  'in.(a,b',
  '%5B%5D',
  '%ED%A0%80',
  '__proto__',
  'constructor',
  'true',
  'null',
  '%7B%22a%22%3A1%7D',
  '-__proto__',
  'createdAt,__proto__',
  '00000000-0000-0000-0000-000000000000',
  '%FF',
  "'%3B--",
]
/** Extra query strings sent to every operation. */
const QUERY_EXTRAS = [
  '__proto__=1',
  'constructor%5Bprototype%5D%5Bx%5D=1',
  'sort=__proto__',
  'page=1&page=2',
  '%00=1',
  'a%ED%B0%80=1',
  `x=${'y'.repeat(10_000)}`,
]
const RAW_BODIES = [
  '',
  '[{}]',
  'null',
  '"a string"',
  '5',
  'true',
  '{"truncated": "',
  '{"a":',
  '\u0000',
  '{"__proto__": {"x": 1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{}',
  '[]',
  nested(100),
  '['.repeat(10_000) + ']'.repeat(10_000),
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"x":"\\ud800"}',
  `{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
]
/** Authorization headers that are not a valid credential (beside none at all). */
const BAD_AUTH = [
  'Bearer ',
  'Bearer x',
  `Bearer eco_${'x'.repeat(40)}`,
  'Basic Zm9vOmJhcg==',
  'Bearer a.b.c',
  `Bearer ${btoa('{"alg":"none","typ":"JWT"}').replace(/=+$/, '')}.${btoa('{"sub":"x","exp":9999999999}').replace(/=+$/, '')}.`,
  `Bearer ${'x'.repeat(10_000)}`,
  'bearer',
  'Bearer eco_',
  'Bearer \u00e9',
]
const BAD_ECOSYSTEM = ['x'.repeat(1000), 'not-a-uuid', '__proto__', '00000000-0000-0000-0000-000000000000', ' ', 'rdid:eco:nothing', '%00']
const BAD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/xml',
]

/** Filter values for list queries (the authenticated fuzz's, and more). */
const FILTER_VALUES = [
  'in.(',
  'in.(a,b',
  'in.()',
  `in.(${'a,'.repeat(150)}a)`,
  'eq.',
  'eq',
  '',
  `eq.${'x'.repeat(10_000)}`,
  `neq.${encodeURIComponent('é😀'.repeat(2_000))}`,
  'eq.%00',
  '%00',
  'eq.x%ED%A0%80y',
  'ilike.%ed%bf%bf',
  'ilike.***',
  `ilike.${encodeURIComponent('%_\\*'.repeat(200))}`,
  'eq.%FF%FE',
  `eq.${encodeURIComponent("'; drop table x; --")}`,
  'gt.1e309',
  'lt.NaN',
  'is.maybe',
  'is.null',
  'is.true',
  'cs.{a}',
  'eq.1',
  'gte.-9223372036854775809',
  'lte.99999999999999999999',
  'eq.2026-01-02T03:04:05Z',
  'gt.0000-00-00',
  'eq.00000000-0000-0000-0000-000000000000',
  'eq.true',
  'eq.%7B%7D',
  'in.(1,2,3)',
  'in.(%00)',
  'eq.__proto__',
  'eq.constructor',
  'eq.1.5',
  'gt.Infinity',
  `eq.${'9'.repeat(400)}`,
  'in.(,,,)',
  'ilike.',
]
/** Filter values a column of each kind accepts, mixed with the hostile ones so queries reach SQL. */
const VALID_BY_KIND: Record<ColumnKind, string[]> = {
  text: ['eq.x', 'neq.probe', 'ilike.*o*', 'in.(a,b,probe)', 'is.null', `eq.${'é'.repeat(500)}`, 'gt.a', 'lte.zzz'],
  integer: ['eq.1', 'gt.-2147483648', 'lte.2147483647', 'in.(1,2,3)', 'is.null', 'neq.0'],
  number: ['eq.1.5', 'gt.-1e300', 'lt.1e300', 'in.(1,2.5)', 'is.null'],
  boolean: ['is.true', 'is.false', 'eq.true', 'neq.false', 'is.null'],
  timestamp: ['gte.2026-01-01', 'lt.2030-01-01T00:00:00Z', 'eq.2026-01-02T03:04:05.000Z', 'is.null', 'gt.1970-01-01'],
  json: ['is.null', 'eq.1', 'eq.x'],
  uuid: ['eq.00000000-0000-0000-0000-000000000000', 'in.(00000000-0000-0000-0000-000000000000)', 'is.null', 'neq.a8098c1a-f86e-11da-bd1a-00112444be1e'],
}
const PAGING = [
  'page=0',
  'page=-1',
  'page=10001',
  'page=99999999999999999999999',
  'page=1e3',
  'page=1.5',
  'page=NaN',
  'page=',
  'page=1&page=2',
  'pageSize=0',
  'pageSize=101',
  'pageSize=1000000000',
  'pageSize=-5',
  'pageSize=%00',
  'page=10000&pageSize=100',
  'page=1&pageSize=1',
  'page=%ED%A0%80',
  'pageSize=1e309',
  'includeDeleted=maybe',
  'includeDeleted=true',
  'includeDeleted=%00',
]

// ---------------------------------------------------------------------------------------------
// The app, and what it logs for an unhandled error

interface Actor {
  name: string
  token?: string
  headers?: Record<string, string>
}
interface Reply {
  status: number
  text: string
  json: any
}

/** The server's error log lines by request id (only the newest few hundred). */
function errorLogCapture() {
  const byRequest = new Map<string, string>()
  const write = (line: string) => {
    try {
      const entry = JSON.parse(line) as Record<string, any>
      const text = [
        entry.msg,
        entry.error && `${entry.error}: ${entry.message}`,
        entry.sqlState && `sqlState ${entry.sqlState}`,
        entry.query && `query ${String(entry.query).slice(0, 200)}`,
        Array.isArray(entry.at) && entry.at.length ? `at ${entry.at.slice(0, 3).join(' < ')}` : undefined,
      ]
        .filter(Boolean)
        .join(' | ')
      const key = typeof entry.requestId === 'string' ? entry.requestId : `_${byRequest.size}`
      byRequest.set(key, text)
      if (byRequest.size > 500) byRequest.delete(byRequest.keys().next().value!)
    } catch {}
  }
  return { write, byRequest }
}

async function fuzzApp(backend: Backend) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-fuzz-'))
  const temp = backend === 'postgres' ? await createTempDatabase() : undefined
  const database = temp ? await openPostgres(temp.url, { max: 10 }) : await openPglite({})
  const log = errorLogCapture()
  const config = loadConfig({
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost',
    JOBS: 'off',
    LOGIN_MAX_ATTEMPTS_PER_IP: '1000000000',
    LOGIN_MAX_FAILURES_PER_EMAIL: '1000000000',
    // Valid-shaped URLs point at a closed loopback port: nothing leaves the machine.
    PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow',
    WEBHOOK_PRIVATE_ADDRESSES: 'allow',
    MONITORED_SITES_PRIVATE_ADDRESSES: 'allow',
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
  })
  await prepareDatabase(database, config, temp?.url)
  const deps = buildDeps(config, database, { logger: createLogger('error', log.write) })
  const app = createApp(deps)
  await deps.queue.start()
  return {
    app,
    log,
    async close() {
      await deps.queue.stop(1000)
      app.services.messaging.close()
      await deps.rateLimits.close()
      await database.close()
      await temp?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

// ---------------------------------------------------------------------------------------------
// OpenAPI: operations, $refs, valid-shaped values

type Schema = Record<string, any>
interface Param {
  name: string
  in: string
  schema?: Schema
}
interface Operation {
  method: string
  template: string
  params: Param[]
  body?: Schema
  contentTypes: string[]
}

function operationsOf(doc: any): Operation[] {
  const deref = (x: any): any => {
    let v = x
    for (let i = 0; v && typeof v === 'object' && typeof v.$ref === 'string' && i < 10; i++) {
      v = v.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: any, k: string) => o?.[k], doc)
    }
    return v
  }
  const ops: Operation[] = []
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [method, raw] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      // A GET answered with an event stream stays open by design (the site feed); its own tests cover it.
      if (method === 'get' && raw.responses?.['200']?.content?.['text/event-stream']) continue
      const content = raw.requestBody ? (deref(raw.requestBody).content ?? {}) : {}
      ops.push({
        method: method.toUpperCase(),
        template,
        params: (raw.parameters ?? []).map(deref),
        body: content['application/json']?.schema,
        contentTypes: Object.keys(content),
      })
    }
  }
  return ops.map((op) => ({ ...op, body: op.body && resolveDeep(op.body, deref) }))
}

/** The schema with every $ref replaced (depth-bounded: schemas may refer to themselves). */
function resolveDeep(schema: Schema, deref: (x: any) => any, depth = 0): Schema {
  if (depth > 8 || !schema || typeof schema !== 'object') return schema
  const s = deref(schema)
  const out: Schema = { ...s }
  if (s.properties) out.properties = Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, v]) => [k, resolveDeep(v, deref, depth + 1)]))
  if (s.items) out.items = resolveDeep(s.items, deref, depth + 1)
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[key])) out[key] = s[key].map((v: Schema) => resolveDeep(v, deref, depth + 1))
  return out
}

/** Property names that take an id of a resource listed at a path. */
const ID_FIELDS: Record<string, string> = {
  documentId: '/data/documents',
  personaId: '/persona/personas',
  serviceId: '/persona/services',
  categoryId: '/community/categories',
  threadId: '/community/threads',
  replyId: '/community/replies',
  conversationId: '/chat/conversations',
  webhookId: '/integrations/webhooks',
  siteId: '/monitored_sites/sites',
  attachmentId: '/storage/attachments',
  organizationId: '/registry/organizations',
  ecosystemId: '/registry/ecosystems',
  memoryId: '/persona_memory/memories',
  clientId: '/oauth/clients',
}

let unique = 0
/** A value the schema accepts, as far as a generic guess goes; ids of the tenant's own resources by field name. */
function validValue(schema: Schema | undefined, name: string, idOf: (field: string) => string | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'x'
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) {
      const variant = schema[key].find((v: Schema) => v.type !== 'null') ?? schema[key][0]
      return validValue(variant, name, idOf, depth + 1)
    }
  }
  if (Array.isArray(schema.allOf)) return validValue(Object.assign({}, ...schema.allOf), name, idOf, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)
      return Math.min(Math.max(min, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER)
    }
    case 'boolean':
      return true
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => validValue(schema.items, name.replace(/s$/, ''), idOf, depth + 1))
    case 'object':
      return validObject(schema, idOf, depth + 1)
    case 'string':
      return validString(schema, name, idOf)
    default:
      return schema.properties ? validObject(schema, idOf, depth + 1) : 'x'
  }
}

function validObject(schema: Schema, idOf: (field: string) => string | undefined, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const required = new Set<string>(schema.required ?? [])
  for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) {
    // Optional fields that change what else the body must say are left out of the base body.
    if (!required.has(key) && ['templateId', 'default', 'confirm', 'dropColumns', 'supersedesId'].includes(key)) continue
    out[key] = validValue(prop, key, idOf, depth)
  }
  return out
}

function validString(schema: Schema, name: string, idOf: (field: string) => string | undefined): string {
  const n = ++unique
  const lower = name.toLowerCase()
  const id = idOf(name)
  if (id && (schema.format === 'uuid' || /id$/i.test(name))) return id
  const candidates: string[] = []
  if (schema.format === 'date-time' || /[a-z]At$/.test(name)) candidates.push('2030-01-02T03:04:05.000Z')
  if (schema.format === 'date') candidates.push('2030-01-02')
  if (schema.format === 'email' || lower.includes('email')) candidates.push(`fuzz${n}@example.test`)
  if (schema.format === 'uuid') candidates.push('00000000-0000-4000-8000-000000000000')
  if (schema.format === 'uri' || lower.includes('url') || lower.includes('uri')) candidates.push('http://127.0.0.1:9/fuzz')
  if (lower.includes('phone') || lower === 'to') candidates.push('+15555550100')
  if (lower.includes('password')) candidates.push(`fuzz-password-${n}-long`)
  if (/(To|Until|Before)$/.test(name)) candidates.unshift('2031-01-02T03:04:05.000Z')
  candidates.push(
    `fuzz-${n}`,
    `fuzz_${n}`,
    `fuzz${n}`,
    'a0',
    'text',
    'x',
    'http://127.0.0.1:9/fuzz',
    '+15555550100',
    '#336699',
    'A',
    '1',
    `fuzz${n}@example.test`,
  )
  candidates.push(`fuzz-${n}.example.test`, 'text/plain', '0'.repeat(64), 'customer.created')
  let pattern: RegExp | undefined
  try {
    pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined
  } catch {}
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? Infinity
  for (const c of candidates) {
    const v = c.length < min ? c + 'x'.repeat(min - c.length) : c
    if (v.length <= max && (!pattern || pattern.test(v))) return v
  }
  return candidates[0]!.padEnd(min, 'x')
}

// ---------------------------------------------------------------------------------------------
// The fuzz

type Tenant = {
  owner: { token: string; email: string; password: string }
  ecosystemId: string
  rdid?: string
  organizationId: string
  customer: { customerId: string; token: string }
  apiToken?: string
  slug?: string
  /** Ids (and slugs, names) of the tenant's resources by the path that lists them. */
  found: Map<string, Record<string, unknown>>
}

export async function benchFuzz(options: FuzzOptions = {}): Promise<FuzzResult> {
  const seed = options.seed ?? 24
  const minRequests = options.minRequests ?? MIN_REQUESTS
  const listRandom = options.listRandom ?? 9_000
  const log = (line: string) => console.error(line)
  const wanted = options.backends ?? (process.env.TEST_DATABASE_URL || process.env.BENCH_PG_URL ? ['pglite', 'postgres'] : ['pglite'])
  const results: BackendResult[] = []
  for (const backend of wanted) {
    if (backend === 'postgres' && !(await postgresAvailable())) {
      log(`  postgres: skipped (no PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`)
      results.push({ backend, skipped: 'PostgreSQL not reachable' })
      continue
    }
    try {
      results.push(await fuzzOne(backend, seed, listRandom, log))
    } catch (err) {
      log(`  ${backend}: FAILED: ${(err as Error).stack ?? err}`)
      results.push({ backend, error: (err as Error).message })
    }
  }
  const measured = results.filter((b) => b.total)
  const fivexx = measured.reduce((n, b) => n + b.total!.classes['5xx'] + b.total!.classes.timeout, 0)
  const enough = measured.length > 0 && measured.every((b) => b.total!.requests >= minRequests)
  const failed = fivexx > 0 || !enough || results.some((b) => b.error)
  return { pass: !failed, failed, run: runInfo(), seed, minRequests, backends: results }
}

async function fuzzOne(backend: Backend, seed: number, listRandom: number, log: (line: string) => void): Promise<BackendResult> {
  const rng = mulberry32(seed)
  const started = performance.now()
  const server = await fuzzApp(backend)
  try {
    const { app } = server
    const phases: Record<string, Tally> = {}
    const findings = new Map<string, Finding>()
    const notErrorShape: Record<string, { count: number; example: string }> = {}
    const answered2xx = new Set<string>()
    let phase = 'setup'
    const tally = () => (phases[phase] ??= { requests: 0, classes: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, timeout: 0 }, notErrorShape: 0 })

    /** One request; counted in the current phase (setup and health checks apart). */
    async function send(method: string, path: string, actor: Actor, body?: string, extra: Record<string, string> = {}, template = path): Promise<Reply> {
      const headers: Record<string, string> = { ...actor.headers, ...extra }
      if (actor.token) headers.authorization ??= `Bearer ${actor.token}`
      if (body !== undefined) headers['content-type'] ??= 'application/json'
      let status = 0
      let text = ''
      let requestId = null as string | null
      let request: Request
      try {
        request = new Request(`http://localhost${path}`, { method, headers, body })
      } catch (err) {
        // A request the Fetch API itself refuses to build never reaches the app: not counted.
        return { status: 0, text: String(err), json: null }
      }
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS)))
      try {
        const answered = await Promise.race([
          (async () => {
            const res = await app.handle(request)
            requestId = res.headers.get('x-request-id')
            return { status: res.status, text: await res.text() }
          })(),
          timeout,
        ])
        if (answered === 'timeout') status = -1
        else ({ status, text } = answered)
      } finally {
        clearTimeout(timer)
      }
      let json: any = null
      if ((phase === 'setup' || text.length < 200_000) && /^[{[]/.test(text)) {
        try {
          json = JSON.parse(text)
        } catch {}
      }
      if (phase === 'setup') return { status, text, json }
      const t = tally()
      t.requests++
      const cls: StatusClass = status < 0 ? 'timeout' : status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx'
      t.classes[cls]++
      if (cls === '4xx' && !(typeof json?.error?.code === 'string' && typeof json?.error?.message === 'string')) {
        t.notErrorShape++
        const key = `${method} ${template} ${status}`
        if (notErrorShape[key]) notErrorShape[key].count++
        else if (Object.keys(notErrorShape).length < 50) notErrorShape[key] = { count: 1, example: text.slice(0, 120) }
      }
      if (cls === '2xx') answered2xx.add(`${method} ${template}`)
      if (cls === '5xx' || cls === 'timeout') {
        const logLine = (requestId && server.log.byRequest.get(requestId)) || undefined
        const message =
          logLine
            ?.replace(/ \| at .*/, '')
            .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<uuid>')
            .slice(0, 160) ?? '(no log line: throttled or not logged)'
        const key = `${status < 0 ? 'timeout' : status} ${method} ${template} ${message}`
        // At most 200 distinct findings are kept apart; the rest share one entry (memory stays bounded).
        const bucket = findings.has(key) || findings.size < 200 ? key : '(more distinct 5xx than 200)'
        const finding = findings.get(bucket) ?? findings.set(bucket, { key: bucket, count: 0, examples: [] }).get(bucket)!
        finding.count++
        if (finding.examples.length < 3) {
          finding.examples.push({
            actor: actor.name,
            method,
            path: path.slice(0, 300),
            body: body?.slice(0, 300),
            status,
            response: text.slice(0, 300),
            log: logLine,
          })
        }
      }
      return { status, text, json }
    }
    const ok = async (method: string, path: string, actor: Actor, body?: unknown) => {
      const res = await send(method, path, actor, body === undefined ? undefined : JSON.stringify(body))
      if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`)
      return res.json
    }

    // ---- setup: two tenants, each an owner, an organization, a customer, an API token
    async function tenant(label: string): Promise<Tenant> {
      const email = `fuzz-${label}@example.test`
      const password = `fuzz-${label}-owner-password`
      const account = await ok('POST', '/auth/register', { name: 'anon' }, { email, password, name: `Fuzz ${label}` })
      const org = await ok('POST', '/registry/organizations', { name: 'owner', token: account.token }, { slug: `fuzz-${label}`, name: `Fuzz ${label}` })
      const asOwner = { name: 'owner', token: account.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
      const { customerId } = await ok('POST', '/customer/resolve', asOwner, { externalId: `fuzz-${label}-customer` })
      const { token } = await ok('POST', '/customer/token', asOwner, { customerId })
      const api = await ok('POST', '/auth/tokens', { name: 'owner', token: account.token }, { name: 'fuzz' })
      return {
        owner: { token: account.token, email, password },
        ecosystemId: org.ecosystem.id,
        rdid: org.ecosystem.rdid,
        organizationId: org.organization.id,
        customer: { customerId, token },
        apiToken: api.token,
        found: new Map(),
      }
    }
    const A = await tenant('a')
    const B = await tenant('b')
    const memberEmail = 'fuzz-member@example.test'
    await ok('POST', '/auth/register', { name: 'anon' }, { email: memberEmail, password: 'fuzz-member-password', name: 'Fuzz member' })
    const actorsOf = (t: Tenant, other: Tenant) => ({
      none: { name: 'none' } as Actor,
      owner: { name: 'owner (no X-Ecosystem-Id)', token: t.owner.token } as Actor,
      admin: { name: 'owner + X-Ecosystem-Id', token: t.owner.token, headers: { 'x-ecosystem-id': t.ecosystemId } } as Actor,
      otherEco: { name: "owner + other tenant's X-Ecosystem-Id", token: t.owner.token, headers: { 'x-ecosystem-id': other.ecosystemId } } as Actor,
      api: { name: 'API token + X-Ecosystem-Id', token: t.apiToken, headers: { 'x-ecosystem-id': t.ecosystemId } } as Actor,
      customer: { name: 'customer', token: t.customer.token } as Actor,
    })
    let actors = actorsOf(A, B)

    let healFailed = 0
    /** Puts a signed-out owner, a revoked API token or customer token back (some operations end them). */
    async function heal(t: Tenant) {
      const before = phase
      phase = 'setup'
      try {
        if ((await send('GET', '/auth/me', { name: 'owner', token: t.owner.token })).status !== 200) {
          t.owner.token = (await ok('POST', '/auth/login', { name: 'anon' }, { email: t.owner.email, password: t.owner.password })).token
        }
        if ((await send('GET', '/auth/me', { name: 'api', token: t.apiToken })).status !== 200) {
          t.apiToken = (await ok('POST', '/auth/tokens', { name: 'owner', token: t.owner.token }, { name: `fuzz-${++unique}` })).token
        }
        if ((await send('GET', '/customer/me', { name: 'customer', token: t.customer.token })).status !== 200) {
          const asOwner = { name: 'owner', token: t.owner.token, headers: { 'x-ecosystem-id': t.ecosystemId } }
          t.customer.token = (await ok('POST', '/customer/token', asOwner, { customerId: t.customer.customerId })).token
        }
      } catch (err) {
        // Expected once the last DELETEs removed the customer or the ecosystem.
        if (!healFailed++)
          log(`  ${backend}: could not restore a credential (expected after DELETE of its own customer or ecosystem): ${(err as Error).message.slice(0, 160)}`)
      } finally {
        phase = before
      }
      actors = actorsOf(A, B)
    }

    // ---- phase 1: derived lists and contract rows, as admin and as customer
    phase = 'setup'
    interface Target {
      name: string
      path: string
      filterable: Readonly<Record<string, ColumnKind>>
      sortable: readonly string[]
      example(actor: 'admin' | 'customer'): Record<string, unknown>
      rows: Partial<Record<'admin' | 'customer', string>>
      otherRow?: string
    }
    const targets: Target[] = []
    const specs = [...DERIVED_RESOURCES, ...communityResources({ categories: {}, threads: {}, replies: {} })]
    const exampleIds: Record<string, Record<string, string>> = { admin: {}, customer: {}, other: {} }
    for (const spec of specs) {
      const target: Target = {
        name: `${spec.schema}/${spec.resource}`,
        path: `/${spec.schema}/${spec.resource}`,
        filterable: spec.filterable,
        sortable: spec.sortable,
        example: (actor) => spec.example(exampleIds[actor]!),
        rows: {},
      }
      for (const actor of ['admin', 'customer'] as const) {
        const res = await send('POST', target.path, actors[actor], JSON.stringify(target.example(actor)))
        if (res.status === 403) continue // only admins create community categories
        if (res.status !== 201) throw new Error(`create ${target.name} as ${actor}: ${res.status} ${res.text.slice(0, 200)}`)
        target.rows[actor] = exampleIds[actor]![spec.resource] = res.json.id
      }
      const other = await send('POST', target.path, actorsOf(B, A).admin, JSON.stringify(spec.example(exampleIds.other!)))
      if (other.status === 201) target.otherRow = exampleIds.other![spec.resource] = other.json.id
      targets.push(target)
    }
    const columns = FUZZ_CONTRACT_COLUMNS
    for (const name of ['fuzz', 'fuzzops']) {
      await ok('POST', '/contract/contracts', actors.admin, { name, columns, access: { read: 'all', create: true, update: 'own', delete: 'own' } })
    }
    const kinds: Record<string, ColumnKind> = { id: 'uuid', customerId: 'uuid', createdAt: 'timestamp', updatedAt: 'timestamp' }
    for (const c of columns) kinds[c.name] = c.type
    const contractRow = () => ({
      title: 'probe',
      note: 'note',
      n: 1,
      score: 1.5,
      done: true,
      at: '2026-01-02T03:04:05.000Z',
      meta: { a: [1, { b: null }] },
      ref: rngUuid(rng),
      constructor: `c-${rngUuid(rng)}`,
      prototype: 7,
    })
    const contract: Target = {
      name: 'contract rows',
      path: '/contract/contracts/fuzz/rows',
      filterable: kinds,
      sortable: Object.keys(kinds).filter((k) => kinds[k] !== 'json'),
      example: contractRow,
      rows: {},
    }
    for (const actor of ['admin', 'customer'] as const) contract.rows[actor] = (await ok('POST', contract.path, actors[actor], contractRow())).id
    for (const actor of ['admin', 'customer'] as const) await ok('POST', '/contract/contracts/fuzzops/rows', actors[actor], contractRow())
    targets.push(contract)

    phase = 'lists: grid'
    const listT0 = performance.now()
    for (const actor of ['admin', 'customer'] as const) {
      const who = actors[actor]
      for (const target of targets) {
        const list = (query: string) => send('GET', `${target.path}?${query}`, who, undefined, {}, `${target.path}?…`)
        await list('')
        for (const name of PROTOTYPE_NAMES) {
          for (const value of ['is.null', 'eq.x', 'in.(', `eq.${'x'.repeat(10_000)}`]) await list(`${name}=${value}`)
          for (const sort of [name, `-${name}`, `createdAt,${name}`, `${name},${name}`]) await list(`sort=${sort}`)
        }
        for (const column of Object.keys(target.filterable)) for (const value of FILTER_VALUES) await list(`${column}=${value}`)
        for (const query of PAGING) await list(query)
      }
    }
    phase = 'lists: random mixes'
    const keysOf = (t: Target) => [...Object.keys(t.filterable), ...PROTOTYPE_NAMES, 'x%ED%A0%80', '%00', 'a'.repeat(300), 'select', 'or', 'and', 'order']
    const sortOf = (t: Target) => {
      const parts = Array.from(
        { length: 1 + Math.floor(rng() * 3) },
        () => `${rng() < 0.4 ? '-' : ''}${pick(rng, [...t.sortable, ...PROTOTYPE_NAMES, '', '%00', '-'])}`,
      )
      return parts.join(rng() < 0.9 ? ',' : ',,')
    }
    for (let i = 0; i < listRandom; i++) {
      const actor = rng() < 0.5 ? 'admin' : 'customer'
      const target = pick(rng, targets)
      const who = actors[actor]
      const roll = rng()
      if (roll < 0.6) {
        const parts: string[] = []
        for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) {
          const key = pick(rng, keysOf(target))
          const kind = Object.hasOwn(target.filterable, key) ? target.filterable[key] : undefined
          parts.push(`${key}=${kind && rng() < 0.5 ? pick(rng, VALID_BY_KIND[kind]) : pick(rng, FILTER_VALUES)}`)
        }
        if (rng() < 0.5) parts.push(`sort=${sortOf(target)}`)
        if (rng() < 0.4) parts.push(pick(rng, PAGING))
        await send('GET', `${target.path}?${parts.join('&')}`, who, undefined, {}, `${target.path}?…`)
      } else if (roll < 0.9) {
        // A row body with one field (or a prototype or surrogate key) replaced.
        const own = target.rows[actor]
        const [method, path] = own && rng() < 0.5 ? ['PATCH', `${target.path}/${own}`] : ['POST', target.path]
        const example = target.example(actor)
        const keys = [...Object.keys(example), ...PROTOTYPE_NAMES, 'x\\ud800', 'id', 'customerId', 'ownerId', 'deletedAt', 'createdAt']
        const body = withKey(example, pick(rng, keys), pick(rng, FIELD_VALUES))
        await send(method, path, who, body, {}, `${method === 'PATCH' ? `${target.path}/{id}` : target.path}`)
      } else {
        const id = pick(rng, [...PATH_GARBAGE, rngUuid(rng), target.otherRow ?? rngUuid(rng), target.rows[actor === 'admin' ? 'customer' : 'admin'] ?? 'x'])
        const method = pick(rng, ['GET', 'PATCH', 'DELETE'])
        await send(method, `${target.path}/${id}`, who, method === 'PATCH' ? JSON.stringify(target.example(actor)) : undefined, {}, `${target.path}/{id}`)
      }
    }
    log(
      `  ${backend}: lists and rows: ${fmt(phases['lists: grid']!.requests + phases['lists: random mixes']!.requests)} requests in ${((performance.now() - listT0) / 1000).toFixed(0)} s`,
    )
    await heal(A)
    await heal(B)

    // ---- phase 2: every operation of the OpenAPI document
    phase = 'setup'
    const doc = (await send('GET', '/openapi/json', actors.none)).json
    const ops = operationsOf(doc)
    for (const [t, other] of [
      [A, B],
      [B, A],
    ] as const)
      await harvest(t, other)

    /** Creates one of everything a collection POST makes (valid-shaped bodies), then notes ids, slugs and names from each list. */
    async function harvest(t: Tenant, other: Tenant) {
      const as = actorsOf(t, other)
      const idOf = (field: string) => {
        if (field === 'customerId' || field === 'userId') return t.customer.customerId
        if (field === 'organizationId') return t.organizationId
        if (field === 'ecosystemId' || field === 'entityId') return t.ecosystemId
        const path = ID_FIELDS[field]
        return path ? (t.found.get(path)?.id as string | undefined) : undefined
      }
      const collections = ops.filter(
        (op) =>
          op.method === 'POST' &&
          !op.template.includes('{') &&
          op.body &&
          (op.template === '/storage/uploads' || ops.some((o) => o.template.startsWith(`${op.template}/{`))),
      )
      const overrides: Record<string, Record<string, unknown>> = {
        '/persona/services': { name: 'fuzz service', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'fuzz-key' },
        '/contract/contracts': { name: `fuzz_${t === A ? 'a' : 'b'}_extra`, columns: [{ name: 'title', type: 'text' }] },
        '/integrations/webhooks': { events: ['customer.created'] },
        '/oauth/clients': { scopes: ['profile'] },
        '/registry/ecosystems': { rdid: undefined },
        // An account in no organization (another tenant's owner as a member would open its ecosystem to this one).
        '/team/members': { email: memberEmail, role: 'member' },
      }
      /** Bodies used as they are (a generic guess would name things that do not exist). */
      const replacements: Record<string, Record<string, unknown>> = { '/chat/conversations': { title: 'fuzz conversation' } }
      const refused = new Map<string, string>()
      for (let pass = 0; pass < 2; pass++) {
        for (const op of collections) {
          if (t.found.has(op.template) || (op.template === '/storage/uploads' && t.found.has('/storage/attachments'))) continue
          const body = replacements[op.template] ?? { ...validObject(op.body!, idOf), ...overrides[op.template] }
          for (const who of [as.admin, as.owner, as.customer]) {
            const res = await send('POST', op.template, who, JSON.stringify(body))
            refused.set(
              op.template,
              `${refused.get(op.template) ?? ''}\n    ${who.name}: ${res.status} ${res.text.slice(0, 200)} ← ${JSON.stringify(body).slice(0, 300)}`,
            )
            if (res.status < 300 && res.json && typeof res.json === 'object') {
              const row = res.json.id ? res.json : (Object.values(res.json).find((v: any) => v?.id) ?? res.json)
              t.found.set(op.template === '/storage/uploads' ? '/storage/attachments' : op.template, row)
              break
            }
          }
        }
      }
      const site = await send(
        'PUT',
        '/site/services/fuzz-site',
        as.admin,
        JSON.stringify({ kind: 'webhook', enabled: false, config: { url: 'http://127.0.0.1:9/site' } }),
      )
      refused.set('PUT /site/services/fuzz-site', `${site.status} ${site.text.slice(0, 160)}`)
      const slug = `fuzz-owner-${t === A ? 'a' : 'b'}`
      if ((await send('PATCH', '/auth/me', as.owner, JSON.stringify({ slug }))).status === 200) t.slug = slug
      if (process.env.FUZZ_DEBUG) for (const [k, v] of refused) if (!t.found.has(k)) log(`  not created: ${k}: ${v}`)
      // A conversation with messages, for `{messageId}`.
      const conversation = t.found.get('/chat/conversations')?.id
      if (conversation)
        for (const who of [as.customer, as.admin]) await send('POST', `/chat/conversations/${conversation}/messages`, who, '{"message":"hello"}')
      for (const op of ops.filter((o) => o.method === 'GET')) {
        const path = fillOwn(op.template, t)
        if (!path || t.found.has(op.template)) continue
        for (const who of [as.admin, as.owner, as.customer]) {
          const res = await send('GET', path + requiredQuery(op, idOf), who)
          const list = Array.isArray(res.json?.items)
            ? res.json.items
            : Array.isArray(res.json?.rows)
              ? res.json.rows
              : Array.isArray(res.json)
                ? res.json
                : undefined
          const first = list?.find((x: any) => x && typeof x === 'object')
          if (first) {
            t.found.set(op.template, first)
            break
          }
          if (Array.isArray(res.json?.messages) && res.json.messages[0]) t.found.set(`${op.template}/messages`, res.json.messages[0])
        }
      }
    }

    /** The query parameters an operation requires, with valid-shaped values (`?a=…&b=…`), or ''. */
    function requiredQuery(op: Operation, idOf: (field: string) => string | undefined, extra?: string): string {
      const replaced = extra?.split('=')[0]
      const params = op.params.filter((p) => p.in === 'query' && (p as { required?: boolean }).required && p.name !== replaced)
      const parts = params.map((p) => `${p.name}=${encodeURIComponent(String(validValue(p.schema, p.name, idOf)))}`)
      if (extra !== undefined) parts.push(extra)
      return parts.length ? `?${parts.join('&')}` : ''
    }

    /** The template with the tenant's own values for its parameters, or undefined when one is unknown. */
    function fillOwn(template: string, t: Tenant, last?: string): string | undefined {
      let unknown = false
      const lastAt = template.lastIndexOf('{')
      const path = template.replace(/\{([^}]+)\}/g, (_, name: string, offset: number) => {
        if (last !== undefined && offset === lastAt) return last
        const collection = template.slice(0, offset - 1)
        const v = ownValue(name, collection, t)
        if (v === undefined) unknown = true
        return encodeURIComponent(v ?? '')
      })
      return unknown ? undefined : path
    }
    function ownValue(name: string, collection: string, t: Tenant): string | undefined {
      if (name === 'userId' || name === 'customerId') return t.customer.customerId
      if (name === 'rdid') return t.rdid ?? t.ecosystemId
      if (collection === '/contract/contracts' && name === 'name') return t === A ? 'fuzzops' : 'fuzz_b_extra'
      if (collection === '/auth/slug-available') return 'some-free-slug'
      if (collection === '/public/users') return t.slug
      const row = t.found.get(collection) ?? (collection === '/public/personas' ? t.found.get('/persona/personas') : undefined)
      const value = row?.[name === 'id' || name.endsWith('Id') ? 'id' : name]
      return typeof value === 'string' ? value : undefined
    }

    phase = 'operations'
    const opsT0 = performance.now()
    const otherActors = () => [actors.none, actors.owner, actors.api, actors.otherEco]
    let done = 0
    // DELETEs last (with the tenant's own ids they remove what the others stand on); the ecosystem and the customer at the very end.
    const rank = (op: Operation) => (op.method !== 'DELETE' ? 0 : /^\/(registry\/ecosystems|customer\/customers)\//.test(op.template) ? 2 : 1)
    for (const op of [...ops].sort((x, y) => rank(x) - rank(y))) {
      const { method, template } = op
      const hasBody = op.body !== undefined || op.contentTypes.length > 0
      const idOf = (field: string) => {
        if (field === 'customerId' || field === 'userId') return A.customer.customerId
        if (field === 'organizationId') return A.organizationId
        if (field === 'ecosystemId' || field === 'entityId') return A.ecosystemId
        const path = ID_FIELDS[field]
        return path ? (A.found.get(path)?.id as string | undefined) : undefined
      }
      const base = op.body ? validObject(op.body, idOf) : undefined
      const baseText = base === undefined ? (hasBody ? '{}' : undefined) : JSON.stringify(base)
      const own = fillOwn(template, A)
      const otherTenants = fillOwn(template, B)
      const rq = requiredQuery(op, idOf)
      const main = (own ?? template.replace(/\{[^}]+\}/g, () => rngUuid(rng))) + rq
      const allActors = Object.values(actors)

      // Path parameters: garbage, a uuid of nothing, the caller's own, another tenant's; every actor.
      const paramCount = (template.match(/\{/g) ?? []).length
      const paths = paramCount
        ? [
            ...PATH_GARBAGE.map((g) => template.replace(/\{[^}]+\}/g, g)),
            template.replace(/\{[^}]+\}/g, () => rngUuid(rng)),
            ...(otherTenants ? [otherTenants] : []),
            // The last parameter garbage or another tenant's, the ones before it the caller's own.
            ...(paramCount > 1 ? [...PATH_GARBAGE.slice(0, 6), rngUuid(rng)].map((g) => fillOwn(template, A, g)).filter((p): p is string => !!p) : []),
            ...(own ? [own] : []),
          ]
        : [template]
      for (const path of paths) for (const who of allActors) await send(method, path + rq, who, baseText, {}, template)

      // Query parameters, and names no operation takes.
      const queryParams = op.params.filter((p) => p.in === 'query').map((p) => p.name)
      const queries = [...queryParams.flatMap((name) => QUERY_GARBAGE.map((v) => `${name}=${v}`)), ...QUERY_EXTRAS]
      for (const q of queries) {
        for (const who of [actors.admin, actors.customer, pick(rng, otherActors())])
          await send(method, main.split('?')[0] + requiredQuery(op, idOf, q), who, baseText, {}, template)
      }

      // Headers: broken credentials, ecosystems, content types.
      for (const auth of BAD_AUTH) await send(method, main, { name: 'bad authorization' }, baseText, { authorization: auth }, template)
      for (const eco of BAD_ECOSYSTEM) {
        for (const token of [A.owner.token, A.apiToken!, A.customer.token]) {
          await send(method, main, { name: `bad X-Ecosystem-Id`, token }, baseText, { 'x-ecosystem-id': eco }, template)
        }
      }
      if (hasBody) {
        for (const type of BAD_CONTENT_TYPES) {
          for (const who of [actors.admin, actors.customer]) await send(method, main, who, baseText ?? '{}', { 'content-type': type }, template)
        }
      }

      // Bodies: whole-body garbage, then each field of a valid-shaped body replaced.
      if (hasBody || method !== 'GET') {
        const bodies = [...RAW_BODIES]
        if (base) {
          const fields = Object.keys(op.body?.properties ?? {})
          for (const field of fields) {
            for (const value of FIELD_VALUES) bodies.push(withKey(base, field, value))
            const { [field]: _, ...without } = base
            bodies.push(JSON.stringify(without))
            // One level down: the first field of an object or of an array's first object.
            const inner = base[field]
            const innerObject = Array.isArray(inner) ? inner[0] : inner
            if (innerObject && typeof innerObject === 'object' && !Array.isArray(innerObject)) {
              for (const key of Object.keys(innerObject).slice(0, 3)) {
                for (const value of [pick(rng, FIELD_VALUES), pick(rng, FIELD_VALUES), '{"__proto__":{"x":1}}']) {
                  const changed = withKey(innerObject, key, value)
                  bodies.push(withKey(base, field, Array.isArray(inner) ? `[${changed}]` : changed))
                }
              }
            }
          }
          for (const name of PROTOTYPE_NAMES) for (const value of ['"x"', '{"polluted":1}', 'null']) bodies.push(withKey(base, name, value))
          bodies.push(withKey(base, 'x\\ud800', '1'), JSON.stringify([base]), JSON.stringify({ ...base, extra: 'x'.repeat(100_000) }))
        }
        for (const [i, body] of bodies.entries()) {
          // Each body as the two callers that pass the guards; every fourth also as one of the others.
          for (const who of [actors.admin, actors.customer, ...(i % 4 === 0 ? [pick(rng, otherActors())] : [])])
            await send(method, main, who, body, {}, template)
        }
      }

      // Some operations end a session or a token (revoke-all, change-password): put them back.
      await heal(A)
      await heal(B)
      if (++done % 25 === 0)
        log(
          `  ${backend}: ${done}/${ops.length} operations, ${fmt(phases.operations!.requests)} requests, ${((performance.now() - opsT0) / 1000).toFixed(0)} s`,
        )
    }

    const total: Tally = { requests: 0, classes: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, timeout: 0 }, notErrorShape: 0 }
    for (const t of Object.values(phases)) {
      total.requests += t.requests
      total.notErrorShape += t.notErrorShape
      for (const k of Object.keys(t.classes) as StatusClass[]) total.classes[k] += t.classes[k]
    }
    const durationSec = (performance.now() - started) / 1000
    log(`  ${backend}: ${fmt(total.requests)} requests in ${durationSec.toFixed(0)} s, 5xx: ${total.classes['5xx']}, timeouts: ${total.classes.timeout}`)
    for (const f of findings.values()) log(`  ${backend}: 5xx ×${f.count}: ${f.key}\n    e.g. ${JSON.stringify(f.examples[0])}`)
    const coverage = {
      ownPathUnknown: ops.filter((op) => op.template.includes('{') && !fillOwn(op.template, A)).map((op) => `${op.method} ${op.template}`),
      never2xx: ops.map((op) => `${op.method} ${op.template}`).filter((k) => !answered2xx.has(k)),
    }
    log(
      `  ${backend}: own ids unknown for ${coverage.ownPathUnknown.length} operations, ${coverage.never2xx.length} of ${ops.length} operations never answered 2xx (see results file)`,
    )
    return { backend, durationSec, operations: ops.length, phases, total, findings: [...findings.values()], notErrorShape, coverage }
  } finally {
    await server.close()
  }
}

/** A body as JSON text with `value` (JSON text) under `key`, which may be `__proto__`; the other fields as in `body`. */
function withKey(body: Record<string, unknown>, key: string, value: string): string {
  const rest = JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => k !== key))).slice(1, -1)
  return `{${key.includes('\\') ? `"${key}"` : JSON.stringify(key)}:${value}${rest ? `,${rest}` : ''}}`
}

export function fuzzTable(result: FuzzResult): string {
  const line = (label: string, t: Tally, duration = '') => {
    const c = t.classes
    return `| ${label} | ${fmt(t.requests)} | ${fmt(c['2xx'])} | ${fmt(c['3xx'])} | ${fmt(c['4xx'])} | ${c['5xx']} | ${c.timeout} | ${t.notErrorShape} | ${duration} |`
  }
  const rows = result.backends.flatMap((b) =>
    b.total
      ? [
          ...Object.entries(b.phases!).map(([name, t]) => line(`${b.backend}: ${name}`, t)),
          line(`**${b.backend}: all**`, b.total, `${b.durationSec!.toFixed(0)} s (${b.operations} operations)`),
        ]
      : [`| ${b.backend} | ${b.skipped ?? b.error} | | | | | | | |`],
  )
  const table = markdownTable(
    '| database: phase | requests | 2xx | 3xx | 4xx | 5xx | timeouts | 4xx not in error shape | duration |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    rows,
  )
  const findings = result.backends.flatMap((b) =>
    (b.findings ?? []).map((f) => `- ${b.backend} ×${f.count}: ${f.key}\n  e.g. ${JSON.stringify(f.examples[0])}`),
  )
  const verdict = result.pass
    ? `0 responses ≥ 500, ≥ ${fmt(result.minRequests)} requests on each database: pass`
    : 'FAIL (a 5xx or timeout, too few requests, or a database that did not run)'
  return [table, '', `seed ${result.seed}. ${verdict}`, ...findings].join('\n')
}

export const command: BenchCommand<FuzzResult> = {
  name: 'fuzz',
  run: (argv) => benchFuzz(benchArgs<FuzzOptions>(argv, { seed: 'seed', 'list-random': 'listRandom', 'min-requests': 'minRequests' }).opts),
  table: fuzzTable,
}

if (import.meta.main) {
  hookSignals()
  const result = await command.run(process.argv.slice(2))
  printResult(command, result)
  await cleanup()
  process.exit(result.pass ? 0 : 1)
}
