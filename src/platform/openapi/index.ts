import { openapi, type ElysiaOpenAPIConfig } from '@elysiajs/openapi'
import { FormatRegistry } from '@sinclair/typebox'
import { Elysia } from 'elysia'
import { fullFormats } from 'elysia/type-system/format'
import { codesDescription, ERROR_CODE_SCHEMA, ERROR_DESCRIPTION, PLATFORM_ERRORS } from '../errors'
import { rateLimitExempt } from '../http'
import { hoistNamedSchemas } from './components'
import { docsPage } from './docs-page'
import { swaggerUiView } from './swagger-ui-view'
import { serveWebAsset, type WebAsset, webAsset } from '../web-assets'

// Importing @elysiajs/openapi replaces TypeBox's string formats (email, uuid, url, ...) with
// valibot-based checks that build a schema on every call: measurably slower on every response
// carrying such a field (bench/README.md, P1). Put Elysia's regular-expression checks back.
for (const [name, check] of Object.entries(fullFormats)) {
  if (check instanceof RegExp) FormatRegistry.Set(name, (value) => check.test(value))
}

export const OPENAPI_JSON_PATH = '/openapi/json'

/**
 * Put on a response schema whose body is not JSON, e.g. `{ [MEDIA_TYPE]: 'text/event-stream' }`:
 * the generator files every object schema under application/json (a string under text/plain); the
 * tidy step moves it.
 */
export const MEDIA_TYPE = 'x-media-type'

/**
 * Put in a route's (or macro's) `detail`: parameters the operation always takes, e.g. a header a
 * guard reads. The generator replaces `detail.parameters` with a route's own path and query
 * parameters; the tidy step appends these afterwards.
 */
export const EXTRA_PARAMETERS = 'x-extra-parameters'

/**
 * Put in `detail` by the tenancy guard: the role an operation needs (`customer`, `member`, `admin`,
 * `owner`, or `<role>-or-platform` for tenantOrAdmin). The tidy step adds the error responses the
 * guard can answer, where the route does not declare its own, and the role sentence to the
 * description, so routes write neither.
 */
export const TENANT_LEVEL = 'x-tenant-level'

const ERROR_SCHEMA = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } }

/** What the tenancy guard answers: a missing X-Ecosystem-Id, credentials, role, an unknown ecosystem. */
const TENANCY_RESPONSES = Object.fromEntries(
  Object.entries({
    400: ['validation_failed', 'ecosystem_required'],
    401: ['unauthorized', 'token_expired'],
    403: ['forbidden', 'mfa_required'],
    404: ['not_found'],
  }).map(([status, codes]) => [status, { description: codesDescription(PLATFORM_ERRORS, codes), content: ERROR_SCHEMA }]),
)

/** Marks an operation behind the account guard (`auth`, `scope`, `admin`): it may answer 403 `mfa_required` (an `aal1` session of an account with a second factor). */
export const ACCOUNT_GUARD = 'x-account-guard'
const ACCOUNT_403 = { description: codesDescription(PLATFORM_ERRORS, ['forbidden', 'mfa_required']), content: ERROR_SCHEMA }

/** The sentence a description ends with, by the role its operation needs (customers' routes say who they serve themselves). */
const ROLES = { member: 'Ecosystem members (any role)', admin: 'Ecosystem admins and owners', owner: 'Ecosystem owners' }
const ROLE_SENTENCES: Record<string, string> = Object.fromEntries(
  Object.entries(ROLES).flatMap(([role, who]) => [
    [role, `${who}.`],
    [`${role}-or-platform`, `${who}; without X-Ecosystem-Id, platform admins.`],
  ]),
)

type Parameter = { name?: string; in?: string; $ref?: string }
type Doc = {
  tags?: { name: string }[]
  paths?: Record<string, Record<string, Operation>>
  webhooks?: Record<string, Record<string, Operation>>
  components?: { schemas?: Record<string, unknown>; headers?: Record<string, unknown> }
}
type Operation = {
  tags?: string[]
  security?: unknown[]
  parameters?: Parameter[]
  [EXTRA_PARAMETERS]?: Parameter[]
  [TENANT_LEVEL]?: string
  [ACCOUNT_GUARD]?: boolean
  description?: string
  requestBody?: { required?: boolean; content?: Record<string, { schema?: { required?: string[] } }> }
  responses?: Record<string, { description?: string; content?: unknown; headers?: Record<string, unknown> }>
}

/** Any operation answers this to a NUL character in its path or query string (requestContext), before anything else runs. */
const EVERY_OPERATION_400 = {
  description: '`validation_failed`: the path or query string contains a NUL character (every operation)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
}

/** What every rate-limited operation may answer (platform/api-limits.ts; docs/operations/rate-limits.md). */
const RATE_LIMITED_429 = { description: codesDescription(PLATFORM_ERRORS, ['rate_limited']), content: ERROR_SCHEMA }

const RATE_LIMIT_HEADERS = {
  RateLimitPolicy: {
    description:
      'The rate-limit policy that counted this request (draft-ietf-httpapi-ratelimit-headers): its class (`read`, `write`, `expensive`, `anonymous`), `q` the requests allowed per window, `w` the window in seconds, e.g. `"read";q=600;w=60`. Absent with RATE_LIMITS=off.',
    schema: { type: 'string' },
  },
  RateLimit: {
    description: 'What is left of that policy: `r` requests remaining in the window, `t` seconds until it resets, e.g. `"read";r=599;t=42`.',
    schema: { type: 'string' },
  },
  RetryAfter: { description: 'Seconds until the budget that was spent resets', schema: { type: 'integer', minimum: 1 } },
}

const REQUEST_ID_HEADER = {
  description: 'The request id: the caller’s X-Request-Id when it sent a well-formed one (1–128 of A–Z a–z 0–9 . _ : -), else a new one. Logs carry it.',
  schema: { type: 'string' },
}

/**
 * Fixes what the generator gets wrong so the published document is valid OpenAPI 3.1:
 * void responses (204) carry no content, a body whose fields are all optional is optional, a
 * response schema marked with MEDIA_TYPE is filed under that media type, an integer is an
 * integer (Elysia's `t.Integer` documents itself as "a string of format integer, or an integer"),
 * and request bodies are JSON only (the generator also lists form encodings, which the server
 * refuses with 415; routes that take forms declare their own media types).
 * Elysia adds `additionalProperties: false` to a shared schema once a route using it has run, so
 * it is dropped everywhere to keep the document the same whatever has been served; clients
 * should ignore fields they do not know anyway. OpenAPI 3.0's `nullable` (beside 3.1's type
 * arrays) goes too.
 * Then: an operation that declares no `security` is public (`security: []`), one that declares no
 * 400 gets the NUL-character 400 every operation can answer, one that needs a tenant role
 * (TENANT_LEVEL) gets the guard's 400/401/403/404 where it declares none and its role sentence, every response
 * declares the X-Request-Id header (a redirect its Location too), one that is rate limited (all but the probes, metrics and pages)
 * answers 429 and declares the RateLimit fields (a 429 Retry-After too), EXTRA_PARAMETERS join the parameters, tags no operation uses
 * are not published, an error response that lists its codes (`errors(...)`) says them as its
 * description, titled schemas become named components (see hoistNamedSchemas), and the Error
 * schema lists `errorCodes` (every code of every catalogue).
 */
export function tidyOpenApi<T>(generated: T, errorCodes: readonly string[] = []): T {
  // The generator's objects may be the live route schemas: never edit them in place.
  const doc = structuredClone(generated) as Doc
  dropKeywords(doc)
  collapseIntegerStrings(doc)
  const used = new Set<string>()
  for (const op of [...operations(doc.paths), ...operations(doc.webhooks)]) {
    op.security ??= []
    for (const tag of op.tags ?? []) used.add(tag)
  }
  doc.tags = doc.tags?.filter((tag) => used.has(tag.name))
  for (const [path, op] of Object.entries(doc.paths ?? {}).flatMap(([path, ops]) => Object.values(ops).map((op) => [path, op] as const))) {
    const limited = !rateLimitExempt(path)
    const extra = op[EXTRA_PARAMETERS]
    delete op[EXTRA_PARAMETERS]
    for (const parameter of extra ?? []) {
      const params = (op.parameters ??= [])
      if (!params.some((p) => (p.$ref ?? `${p.in}:${p.name}`) === (parameter.$ref ?? `${parameter.in}:${parameter.name}`))) params.push(parameter)
    }
    const level = op[TENANT_LEVEL]
    delete op[TENANT_LEVEL]
    const account = op[ACCOUNT_GUARD]
    delete op[ACCOUNT_GUARD]
    op.responses = {
      '400': EVERY_OPERATION_400,
      ...(level ? structuredClone(TENANCY_RESPONSES) : {}),
      ...(account ? { '403': structuredClone(ACCOUNT_403) } : {}),
      ...(limited ? { '429': structuredClone(RATE_LIMITED_429) } : {}),
      ...op.responses,
    }
    const sentence = level ? ROLE_SENTENCES[level] : undefined
    if (sentence && !op.description?.includes(sentence.slice(0, -1))) op.description = op.description ? `${op.description} ${sentence}` : sentence
    for (const [status, response] of Object.entries(op.responses)) {
      response.headers = { ...response.headers, 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }
      if (limited) {
        response.headers['RateLimit-Policy'] = { $ref: '#/components/headers/RateLimitPolicy' }
        response.headers.RateLimit = { $ref: '#/components/headers/RateLimit' }
        if (status === '429') response.headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' }
      }
      // A typed response map leaves no room for headers; a redirect always says where it goes.
      if (/^3\d\d$/.test(status) && !response.headers.Location)
        response.headers.Location = { description: 'Where the redirect goes', schema: { type: 'string' } }
      const content = response.content as Record<string, unknown> | undefined
      const errorSchema = (content?.['application/json'] as { schema?: Record<string, unknown> } | undefined)?.schema
      if (typeof errorSchema?.[ERROR_DESCRIPTION] === 'string') {
        response.description = errorSchema[ERROR_DESCRIPTION]
        delete errorSchema[ERROR_DESCRIPTION]
      }
      if (content && content.type === 'void') delete response.content
      else if (content) {
        moveMediaType(content)
        if (/^2\d\d$/.test(status)) liftExample(content['application/json'])
      }
    }
    const body = op.requestBody
    if (body?.content && GENERATED_BODY_TYPES.every((type) => type in body.content!)) {
      for (const type of GENERATED_BODY_TYPES.slice(1)) delete body.content[type]
    }
    const schema = body?.content?.['application/json']?.schema
    if (body && schema && !schema.required?.length) body.required = false
    for (const media of Object.values(body?.content ?? {})) liftExample(media)
  }
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, RequestId: REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS } }
  hoistNamedSchemas(doc)
  listErrorCodes(doc, errorCodes)
  return doc as T
}

/**
 * A body's or answer's schema names its examples (`examples` on the TypeBox model, checked against it
 * by tests/openapi-examples.test.ts); the first becomes the media type's `example`, which
 * documentation pages show and "try it" sends.
 */
function liftExample(media: unknown): void {
  const m = media as { schema?: { examples?: unknown[] }; example?: unknown } | undefined
  if (m?.schema?.examples?.length) m.example = m.schema.examples[0]
}

/** Every `error.code` schema (ErrorBody's, also where another schema reuses it): one of the listed codes, or a string (a code added later). */
function listErrorCodes(node: unknown, codes: readonly string[]): void {
  if (Array.isArray(node)) for (const item of node) listErrorCodes(item, codes)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (record[ERROR_CODE_SCHEMA] === true) {
      const { type: _, [ERROR_CODE_SCHEMA]: __, ...rest } = record
      for (const key of Object.keys(record)) delete record[key]
      Object.assign(record, codes.length ? { ...rest, anyOf: [{ type: 'string', enum: [...codes] }, { type: 'string' }] } : { ...rest, type: 'string' })
      return
    }
    for (const value of Object.values(record)) listErrorCodes(value, codes)
  }
}

function operations(section: Doc['paths']): Operation[] {
  return Object.values(section ?? {}).flatMap((ops) => Object.values(ops))
}

/** Files a body under its MEDIA_TYPE, wherever the generator put it (`application/json`; `text/plain` for a string). */
function moveMediaType(content: Record<string, unknown>): void {
  for (const [generated, body] of Object.entries(content) as [string, { schema?: Record<string, unknown> } | undefined][]) {
    const mediaType = body?.schema?.[MEDIA_TYPE]
    if (typeof mediaType !== 'string') continue
    delete body!.schema![MEDIA_TYPE]
    delete content[generated]
    content[mediaType] = body
  }
}

/** The media types the generator lists for a body whose route declares none; the first is the one kept. */
const GENERATED_BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']

function collapseIntegerStrings(node: unknown): void {
  if (Array.isArray(node)) node.forEach(collapseIntegerStrings)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    const anyOf = record.anyOf as Record<string, unknown>[] | undefined
    const integer =
      anyOf?.length === 2 && anyOf.some((s) => s.type === 'string' && s.format === 'integer') ? anyOf.find((s) => s.type === 'integer') : undefined
    if (integer) {
      delete record.anyOf
      Object.assign(record, integer)
    }
    Object.values(record).forEach(collapseIntegerStrings)
  }
}

function dropKeywords(node: unknown): void {
  if (Array.isArray(node)) node.forEach(dropKeywords)
  else if (node && typeof node === 'object') {
    const record = node as Record<string, unknown>
    if (record.additionalProperties === false) delete record.additionalProperties
    if (typeof record.nullable === 'boolean') delete record.nullable
    Object.values(record).forEach(dropKeywords)
  }
}

/**
 * The document at /openapi/json (tidied) and the reference page at /openapi (see docs-page.ts).
 * `errorCodes` are listed on the Error schema: every code of every catalogue (app.ts gathers them
 * from the modules, which platform/ does not import).
 */
export function openApiPlugin(documentation: ElysiaOpenAPIConfig['documentation'], errorCodes: readonly string[] = []) {
  // Tidied and compressed once (the routes of an app do not change after it is built); the
  // reference page asks for `?for=swagger-ui`, the view of it Swagger UI reads quickly.
  let tidied: object | undefined
  const documents: Partial<Record<'full' | 'swagger-ui', WebAsset>> = {}
  return (
    new Elysia({ name: 'openapi-docs' })
      .onAfterHandle(({ path, query, request, response }) => {
        if (path !== OPENAPI_JSON_PATH) return
        tidied ??= tidyOpenApi(response as object, errorCodes)
        const which = query.for === 'swagger-ui' ? 'swagger-ui' : 'full'
        documents[which] ??= webAsset(JSON.stringify(which === 'full' ? tidied : swaggerUiView(tidied)), 'application/json; charset=utf-8')
        return serveWebAsset(request, documents[which], 'no-cache')
      })
      // staticFile: false keeps routes with a dot in their path, e.g. /.well-known/oauth-authorization-server.
      .use(openapi({ path: '/openapi', specPath: OPENAPI_JSON_PATH, provider: null, documentation, exclude: { staticFile: false } }))
      .use(docsPage(documentation?.info?.title ?? 'API', `${OPENAPI_JSON_PATH}?for=swagger-ui`))
  )
}

/** The document as the running app serves it, serialised the way openapi.json is committed. */
export async function renderOpenApi(app: { handle(request: Request): Promise<Response> }): Promise<string> {
  const res = await app.handle(new Request(`http://localhost${OPENAPI_JSON_PATH}`))
  if (!res.ok) throw new Error(`${OPENAPI_JSON_PATH} answered ${res.status}: ${await res.text()}`)
  return `${JSON.stringify(await res.json(), null, 2)}\n`
}
