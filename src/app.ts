import { Elysia } from 'elysia'
import type { Deps } from './deps'
import { ApiLimits } from './platform/api-limits'
import { cors } from './platform/cors'
import { AppError, describeError, errorBody } from './platform/errors'
import { EventBus } from './platform/events'
import { createGuards, type Guards } from './platform/guards'
import { throttledLog } from './platform/logger'
import { requestContext } from './platform/http'
import { MAX_JSON_DEPTH } from './platform/request'
import { openApiPlugin } from './platform/openapi'
import { ECOSYSTEM_PARAMETER } from './platform/tenancy'
import { EVENTS, ERROR_CODES, MODULES, TAGS } from './modules'
import type { ModuleContext, ModuleDefinition, ModuleParts, Services } from './modules/module'
import pkg from '../package.json'

export const API_DESCRIPTION = `Ecobase: a multi-tenant backend service (accounts, OAuth, chat, storage, ...).

Errors answer \`{ "error": { "message", "code" } }\` with a stable snake_case code: \`validation_failed\` (400, the message names the field), \`invalid_json\` (400), \`unauthorized\` / \`token_expired\` (401), \`forbidden\` (403), \`not_found\` (404), \`payload_too_large\` (413), \`unsupported_media_type\` (415), \`rate_limited\` (429, with Retry-After), and per-route codes named in each operation.
Request bodies are JSON objects (\`Content-Type: application/json\`); other media types get 415 before anything runs, so no HTML form can post to the API. Invalid JSON is 400 \`invalid_json\` and any other JSON value than an object 400 \`validation_failed\`, also on routes whose body is optional. A NUL character (\`\\u0000\`) or a lone surrogate (an unpaired \`\\ud800\`–\`\\udfff\`, in a URL \`%ED%A0%80\`–\`%ED%BF%BF\`) anywhere in a body, path or query string is 400 \`validation_failed\`: text columns cannot store them. A JSON body nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects is 400 \`validation_failed\`, refused before it is parsed. The OAuth token endpoints also take form-encoded bodies, as OAuth clients send them.
Lists answer \`{ items, total, page, pageSize }\`; \`page\` starts at 1 and is at most 10,000 (narrow deeper lists with their filters), \`pageSize\` defaults to 20 and is at most 100.
Every response carries \`X-Request-Id\` (the caller's, when it sends a well-formed one).
Requests are rate limited per principal (account, API token, OAuth client, customer) and class of route (\`read\`, \`write\`, \`expensive\`), and per client address without credentials: answers carry \`RateLimit-Policy\` and \`RateLimit\` (draft-ietf-httpapi-ratelimit-headers), and a spent budget is 429 \`rate_limited\` with Retry-After. The probes and \`/metrics\` are never limited; an ecosystem may set its own budgets (\`rateLimits\` of PATCH /registry/ecosystems/{id}).
Account access tokens live ACCESS_TOKEN_TTL_SECONDS (default 900 s).`

type Parts = ModuleParts<string>

/**
 * Builds the HTTP app from deps; no I/O of its own, so tests build it with other deps. Each module
 * (src/modules/index.ts) is set up once, when the list reaches it or when another module first asks
 * for its services, whichever comes first; its routes are mounted in list order.
 */
export function createApp(deps: Deps) {
  const bus = new EventBus()
  bus.declare(EVENTS)
  const byName = new Map<string, (typeof MODULES)[number]>(MODULES.map((m) => [m.name, m]))
  const parts = new Map<string, Parts>()
  const settingUp: string[] = []
  let guards: Guards | undefined
  const http = MODULES.map((m) => ('http' in m ? m.http : undefined) ?? {})
  const limits = new ApiLimits(
    deps,
    (ecosystemId) => context.use('registry').rateLimitsOf(ecosystemId),
    http.flatMap((h) => h.expensiveRoutes ?? []),
  )
  const setUp = (name: string): Parts => {
    const done = parts.get(name)
    if (done) return done
    if (settingUp.includes(name)) throw new Error(`modules need each other to be set up: ${[...settingUp, name].join(' → ')}`)
    const module = byName.get(name)
    if (!module) throw new Error(`no module is named ${name}`)
    settingUp.push(name)
    const built = (module.setup?.(context) ?? {}) as Parts
    settingUp.pop()
    parts.set(name, built)
    return built
  }
  const context: ModuleContext = {
    deps,
    bus,
    events: EVENTS,
    modules: MODULES,
    topics: () => [...parts.values()].flatMap((p) => p.topics ?? []),
    extensions: (point) => [...parts.values()].flatMap((p) => (p.extends?.[point] ? [p.extends[point]!] : [])),
    use: (name) => {
      const services = setUp(name).services
      if (!services) throw new Error(`module ${name} offers no services`)
      return services as never
    },
    get guards() {
      guards ??= createGuards({
        tokens: deps.tokens,
        users: context.use('auth'),
        tenancy: context.use('customer'),
        limits,
        tickets: context.use('realtime').tickets,
        trustProxy: deps.config.trustProxy,
      })
      return guards
    },
  }
  for (const module of MODULES) setUp(module.name)
  const built = MODULES.map((m) => parts.get(m.name)!)
  for (const module of MODULES as readonly ModuleDefinition[]) {
    for (const subscription of module.subscriptions ?? []) {
      const handler = subscription.handler(parts.get(module.name)!.services as never, context) as Parameters<EventBus['onEach']>[1]
      if ('each' in subscription.event) bus.onEach(subscription.event.each, handler)
      else bus.on(subscription.event, handler as never)
    }
  }
  for (const handler of built.flatMap((p) => p.queues ?? [])) deps.queue.define(handler)

  const logUnhandled = throttledLog(deps.logger.error, 10)
  const app = new Elysia()
    .use(
      openApiPlugin(
        {
          info: { title: 'Ecobase API', version: pkg.version, description: API_DESCRIPTION, license: { name: 'MIT', identifier: pkg.license } },
          servers: [{ url: '/', description: 'The server that serves this document (its PUBLIC_URL)' }],
          tags: TAGS,
          webhooks: Object.assign({}, ...http.map((h) => h.webhooks?.(EVENTS) ?? {})),
          components: {
            securitySchemes: Object.assign(
              { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or eco_ API token' } },
              ...http.map((h) => h.securitySchemes ?? {}),
            ),
            parameters: { EcosystemId: ECOSYSTEM_PARAMETER },
          },
        },
        ERROR_CODES,
      ),
    )
    .use(cors(deps.config.corsOrigins))
    .use(
      requestContext(deps, {
        rawBodyPaths: http.flatMap((h) => h.rawBodyPaths ?? []),
        formBodyPaths: http.flatMap((h) => h.formBodyPaths ?? []),
        verbatimBodyPaths: http.flatMap((h) => h.verbatimBodyPaths ?? []),
      }),
    )
    .use(limits.plugin())
    .onError({ as: 'global' }, ({ code, error, request, set, status }) => {
      if (error instanceof AppError) {
        if (error.headers) Object.assign(set.headers, error.headers)
        return status(error.status, { ...errorBody(error.code, error.message), ...error.extra })
      }
      switch (code) {
        case 'VALIDATION':
          return status(400, errorBody('validation_failed', validationMessage(error)))
        case 'PARSE':
          return status(400, errorBody('invalid_json', 'The request body is not valid JSON'))
        case 'NOT_FOUND':
          return status(404, errorBody('not_found', 'No such route'))
        case 'INVALID_COOKIE_SIGNATURE':
          return status(400, errorBody('invalid_cookie', 'A cookie is malformed'))
      }
      const described = describeError(error)
      logUnhandled(`${described.error}:${described.message}`, 'unhandled error', {
        requestId: set.headers['x-request-id'],
        method: request.method,
        path: new URL(request.url).pathname,
        code: String(code),
        ...described,
      })
      return status(500, errorBody('internal_error', 'Internal server error'))
    })
  for (const routes of built.flatMap((p) => p.routes?.() ?? [])) app.use(routes)
  limits.mounted(app.routes)

  /** Subscribes every session kind to revocations, the ecosystem cache to renames and deletions, and feed streams to new items, from any replica (PostgreSQL NOTIFY). */
  async function followRevocations(): Promise<() => Promise<void>> {
    const stops = await Promise.all(built.flatMap((p) => (p.listen ? [p.listen()] : [])))
    return async () => {
      await Promise.all(stops.map((stop) => stop()))
    }
  }

  /** Releases what modules hold open (connections, timers); the process's shutdown calls it. */
  const close = () => {
    for (const p of built) p.close?.()
  }

  const services = Object.fromEntries(
    MODULES.flatMap((m) => (parts.get(m.name)!.services ? [[m.name, parts.get(m.name)!.services]] : [])),
  ) as unknown as Services
  return Object.assign(app, { services, bus, followRevocations, close })
}

export type App = ReturnType<typeof createApp>

/** The values an enum-like schema allows (a union of literals, possibly with null), for a message that lists them. */
function allowedValues(schema: unknown): string[] | null {
  const members = (schema as { anyOf?: { const?: unknown; type?: string }[] } | undefined)?.anyOf
  if (!members?.length || !members.every((m) => m.const !== undefined || m.type === 'null')) return null
  return members.map((m) => (m.type === 'null' ? 'null' : JSON.stringify(m.const)))
}

function validationMessage(error: unknown): string {
  const e = error as { type?: string; valueError?: { path?: string; message?: string; schema?: unknown }; message?: string }
  // Elysia checks query parameters one by one as type `property`, without naming the parameter.
  const where = e.type === 'property' ? 'query' : (e.type ?? 'request')
  const first = e.valueError
  if (!first) return `Invalid ${where}`
  const field = first.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : ''
  const allowed = allowedValues(first.schema)
  const reason = allowed ? `must be one of ${allowed.join(', ')}` : (first.message ?? 'invalid value')
  return `${field ? `${where}.${field}` : where}: ${reason}`
}
