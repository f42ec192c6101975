import { Elysia } from 'elysia'
import type { Deps } from './deps'
import { cors } from './platform/cors'
import { AppError, describeError, errorBody } from './platform/errors'
import { createGuards } from './platform/guards'
import { throttledLog } from './platform/logger'
import { requestContext } from './platform/http'
import { MAX_JSON_DEPTH } from './platform/request'
import { openApiPlugin } from './platform/openapi'
import { ECOSYSTEM_PARAMETER } from './platform/tenancy'
import { auditRoutes } from './modules/audit/routes'
import { AuditLog } from './modules/audit/service'
import { accountEmailRoutes } from './modules/auth/account-email-routes'
import { AccountEmails } from './modules/auth/account-emails'
import { authRoutes } from './modules/auth/routes'
import { AuthService } from './modules/auth/service'
import { chatRoutes } from './modules/chat/routes'
import { ChatService } from './modules/chat/service'
import { communityRoutes } from './modules/community/routes'
import { CommunityService } from './modules/community/service'
import { consoleRoutes } from './modules/console/routes'
import { contractRoutes } from './modules/contract/routes'
import { ContractService } from './modules/contract/service'
import { customerRoutes } from './modules/customer/routes'
import { DATA_RESOURCES, dataRoutes } from './modules/data/routes'
import { ERROR_CODES } from './modules/error-codes'
import { webhooksDocumentation } from './modules/integrations/model'
import { integrationRoutes } from './modules/integrations/routes'
import { emitWebhookEvents } from './modules/integrations/events'
import { WebhookService } from './modules/integrations/service'
import { messagingRoutes } from './modules/messaging/routes'
import { monitoredSiteRoutes } from './modules/monitored_sites/routes'
import { MonitoredSites } from './modules/monitored_sites/service'
import { MessagingService } from './modules/messaging/service'
import { notificationRoutes } from './modules/notifications/routes'
import { NotificationService, UNSUBSCRIBE_PATH } from './modules/notifications/service'
import { oauthSecuritySchemes } from './modules/oauth/model'
import { oauthRoutes } from './modules/oauth/routes'
import { FORM_BODY_PATHS } from './modules/oauth/routes/token'
import { OAuthService } from './modules/oauth/service'
import { personaAreaRoutes } from './modules/persona/routes'
import { PersonaArea } from './modules/persona/service'
import { personaMemoryRoutes } from './modules/persona_memory/routes'
import { memoryToolsFor } from './modules/persona_memory/chat-tools'
import { PersonaMemoryService } from './modules/persona_memory/service'
import { CustomerService } from './modules/customer/service'
import { IdentifierService } from './modules/registry/identifiers'
import { registryRoutes } from './modules/registry/routes'
import { RegistryService } from './modules/registry/service'
import { conversationSearchFor } from './modules/search/chat-tools'
import { SearchBox } from './modules/search/box'
import { searchRoutes } from './modules/search/routes'
import { SearchService } from './modules/search/service'
import { settingsRoutes } from './modules/settings/routes'
import { FeedService } from './modules/site/feed'
import { AdminAlerts } from './modules/notifications/admin-alerts'
import { feedRoutes } from './modules/site/feed-routes'
import { siteRoutes } from './modules/site/routes'
import { SiteServices } from './modules/site/service'
import { SettingsService } from './modules/settings/service'
import { LOCAL_OBJECTS_PATH, storageRoutes } from './modules/storage/routes'
import { StorageService } from './modules/storage/service'
import { systemRoutes } from './modules/system/routes'
import { SystemService } from './modules/system/service'
import { teamRoutes } from './modules/team/routes'
import { TeamService } from './modules/team/service'
import { USERDATA_RESOURCES, userdataRoutes } from './modules/userdata/routes'
import pkg from '../package.json'

export const API_DESCRIPTION = `Ecobase: a multi-tenant backend service (accounts, OAuth, chat, storage, ...).

Errors answer \`{ "error": { "message", "code" } }\` with a stable snake_case code: \`validation_failed\` (400, the message names the field), \`invalid_json\` (400), \`unauthorized\` / \`token_expired\` (401), \`forbidden\` (403), \`not_found\` (404), \`payload_too_large\` (413), \`unsupported_media_type\` (415), \`rate_limited\` (429, with Retry-After), and per-route codes named in each operation.
Request bodies are JSON objects (\`Content-Type: application/json\`); other media types get 415 before anything runs, so no HTML form can post to the API. Invalid JSON is 400 \`invalid_json\` and any other JSON value than an object 400 \`validation_failed\`, also on routes whose body is optional. A NUL character (\`\\u0000\`) or a lone surrogate (an unpaired \`\\ud800\`–\`\\udfff\`, in a URL \`%ED%A0%80\`–\`%ED%BF%BF\`) anywhere in a body, path or query string is 400 \`validation_failed\`: text columns cannot store them. A JSON body nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects is 400 \`validation_failed\`, refused before it is parsed. The OAuth token endpoints also take form-encoded bodies, as OAuth clients send them.
Lists answer \`{ items, total, page, pageSize }\`; \`page\` starts at 1 and is at most 10,000 (narrow deeper lists with their filters), \`pageSize\` defaults to 20 and is at most 100.
Every response carries \`X-Request-Id\` (the caller's, when it sends a well-formed one).
Account access tokens live ACCESS_TOKEN_TTL_SECONDS (default 900 s).`

/** The document's tags, in order, with what each area is; the design of an area the spec names without fields is in its description. */
const TAGS: Record<string, string> = {
  public: 'What anyone may read without credentials: liveness, public persona and user profiles.',
  auth: 'Accounts: register, sign in, refresh and revoke sessions (rotating single-use refresh tokens), profile, password and e-mail flows, API tokens (`eco_…`, shown once).',
  settings: 'Instance settings for platform admins, such as which sign-in methods are enabled, and the audit log (GET /audit/events) of administrative changes and security events.',
  oauth: 'The OAuth 2.1 authorization server: clients (secrets shown once), authorization code with PKCE, token exchange, refresh and revocation, grants, and the server metadata.',
  registry: 'Organizations, ecosystems (tenants), namespaces and readable identifiers (rdids).',
  team: 'Members of an organization and their roles (owner, admin, member).',
  customer: 'End customers of an ecosystem: resolve or register by external id, customer tokens (`POST /customer/token`) with their own refresh and revoke.',
  storage: 'Files: presigned uploads straight to the object store, deduplicated by SHA-256, completion, downloads, and per-customer quotas.',
  usage: 'Storage use against quota, per customer.',
  persona: 'Persona services (a model and its settings) and personas (name, prompt, tools), with public profiles.',
  chat: 'Conversations with a persona: messages, streamed replies (server-sent events), regeneration, edits.',
  persona_memory: 'What a persona remembers about a customer: memories with embeddings, recall by similarity, archive.',
  search: 'Full-text search of chat messages, community threads and replies, documents and notes, with per-ecosystem language settings.',
  data: 'Table-derived resources of the `data` schema (documents and their blocks): list, read, create, update, delete.',
  userdata: 'Table-derived resources of the `userdata` schema (a customer’s own notes).',
  contract: 'Run-time tables of an ecosystem: admins define contracts (columns, access), customers read and write rows.',
  community: 'Categories, threads and replies with moderation, mentions, a points ledger, badges, levels and leaderboards.',
  messaging: 'E-mail and SMS: templates, sends through a durable queue, send results and the send log.',
  notifications: 'In-app notifications, per-category preferences (in-app, e-mail), announcements and one-click unsubscribe.',
  site: 'Site services of an ecosystem, the activity feed (paged and streamed), and version information.',
  integrations:
    'Outbound webhooks. An ecosystem’s admins register endpoints (`url`, `events`, `enabled`, `description`); events of the ecosystem are queued as deliveries in the transaction of the change that causes them and POSTed as JSON signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). 2xx within WEBHOOK_TIMEOUT_SECONDS (10) succeeds; otherwise 13 attempts with exponential backoff over about a day, then `failed`; an endpoint failing for 3 days is disabled and its admins told. Event payloads are under `webhooks` in this document.',
  monitored_sites:
    'Uptime checks. An ecosystem’s admins watch http(s) URLs at 1–60 minute intervals; each due time is checked once across replicas (a GET through the outbound address guard: expected status, optional keyword, timeout, TLS certificate days left). Two failed checks in a row make a site `down`, a good one `up`; each change writes a feed item and a notification for the admins and the webhook event `monitored_site.down` / `.up`. Checks are kept 31 days; each site shows uptime % and p95 latency over 24 h, 7 and 30 days.',
}

/** The table-derived resources the app serves, in dependency order (the cross-tenant suite walks them). */
export const DERIVED_RESOURCES = [...DATA_RESOURCES, ...USERDATA_RESOURCES]

/** Builds the HTTP app from deps; no I/O of its own, so tests build it with other deps. */
export function createApp(deps: Deps) {
  const settings = new SettingsService(deps)
  const auth = new AuthService(deps, settings)
  const oauth = new OAuthService(deps, auth)
  auth.acceptTokenKind('oauth', (claims) => oauth.tokens.resolve(claims))
  const system = new SystemService(deps)
  const team = new TeamService(deps, auth.accounts)
  const registry = new RegistryService(deps, team)
  const identifiers = new IdentifierService(deps, registry.namespaces)
  const customers = new CustomerService(deps, registry, team)
  const storage = new StorageService(deps, customers)
  const persona = new PersonaArea(deps, {
    publicProfiles: (where) => auth.accounts.publicProfiles(where),
    findEcosystem: (idOrRdid) => registry.findEcosystem(idOrRdid),
  })
  const personaMemory = new PersonaMemoryService(deps, persona.personas)
  persona.personas.onRemove((tx, ecosystemId, personaId) => personaMemory.forgetPersona(tx, ecosystemId, personaId))
  const search = new SearchService(deps)
  const site = new SiteServices(deps)
  const messaging = new MessagingService(deps, site)
  const notifications = new NotificationService(deps, messaging)
  const feed = new FeedService(deps)
  storage.attachments.onReady((tx, a) =>
    feed.record(tx, { ecosystemId: a.ecosystemId, customerId: a.customerId, source: 'storage', entityType: 'attachment', entityId: a.id, action: 'ready', summary: `${a.filename} is uploaded and ready` }),
  )
  personaMemory.onCreate(async (tx, tenant, m) => {
    if (m.source !== 'tool' || !m.customerId) return
    await feed.record(tx, { ecosystemId: tenant.ecosystemId, customerId: m.customerId, source: 'persona_memory', entityType: 'memory', entityId: m.id, action: 'saved', summary: `Saved to memory in chat: ${m.description}`.replace(/\s+/g, ' ').slice(0, 300), metadata: { personaId: m.personaId } })
  })
  const community = new CommunityService(deps, notifications, feed)
  const alerts = new AdminAlerts(customers, feed, notifications)
  const webhooks = new WebhookService(deps, alerts)
  const monitor = new MonitoredSites(deps, alerts, webhooks)
  const accountEmails = new AccountEmails(deps, auth.accounts, (to, content) => messaging.sendInstanceEmail(to, content))
  identifiers.acceptEntityType('persona', async (id) => {
    const ecosystemId = await persona.personas.ecosystemOf(id)
    return ecosystemId ? { ecosystemId } : null
  })
  identifiers.acceptEntityType('oauth_client', async (id) => {
    const userId = await oauth.clients.ownerOf(id)
    return userId ? { userId } : null
  })
  identifiers.acceptEntityType('user', async (id) => ((await auth.accounts.profiles([id])).has(id) ? { userId: id } : null))
  const searchBox = new SearchBox(deps)
  const chat = new ChatService(deps, persona, { memory: memoryToolsFor(personaMemory), search: conversationSearchFor(search, searchBox, persona.personas) })
  emitWebhookEvents(webhooks, { customers, attachments: storage.attachments, chat, community, messaging })
  const guards = createGuards({ tokens: deps.tokens, users: auth, tenancy: customers, trustProxy: deps.config.trustProxy })

  const logUnhandled = throttledLog(deps.logger.error, 10)
  const app = new Elysia()
    .use(
      openApiPlugin({
        info: { title: 'Ecobase API', version: pkg.version, description: API_DESCRIPTION, license: { name: 'MIT', identifier: pkg.license } },
        servers: [{ url: '/', description: 'The server that serves this document (its PUBLIC_URL)' }],
        tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
        webhooks: webhooksDocumentation(),
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or eco_ API token' }, ...oauthSecuritySchemes },
          parameters: { EcosystemId: ECOSYSTEM_PARAMETER },
        },
      }, ERROR_CODES),
    )
    .use(cors(deps.config.corsOrigins))
    .use(requestContext(deps, { rawBodyPaths: [`${LOCAL_OBJECTS_PATH}/`], formBodyPaths: [...FORM_BODY_PATHS, UNSUBSCRIBE_PATH] }))
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
    .use(systemRoutes(system))
    .use(consoleRoutes())
    .use(authRoutes(auth, guards, deps))
    .use(accountEmailRoutes(accountEmails, guards, deps.config.trustProxy))
    .use(settingsRoutes(settings, guards))
    .use(auditRoutes(new AuditLog(deps), guards))
    .use(oauthRoutes(oauth, guards, deps.config.oauth.consentUrl))
    .use(registryRoutes(registry, identifiers, guards))
    .use(teamRoutes(team, guards))
    .use(customerRoutes(customers, guards))
    .use(storageRoutes(storage, guards, deps.storage))
    .use(personaAreaRoutes(persona, guards))
    .use(chatRoutes(chat, guards))
    .use(personaMemoryRoutes(personaMemory, guards))
    .use(searchRoutes(search, searchBox, guards))
    .use(dataRoutes(guards, deps))
    .use(userdataRoutes(guards, deps))
    .use(contractRoutes(new ContractService(deps), guards))
    .use(siteRoutes(site, guards))
    .use(feedRoutes(feed, guards))
    .use(messagingRoutes(messaging, guards))
    .use(notificationRoutes(notifications, guards))
    .use(communityRoutes(community, guards, deps))
    .use(integrationRoutes(webhooks, guards))
    .use(monitoredSiteRoutes(monitor, guards))

  /** Subscribes every session kind to revocations, the ecosystem cache to renames and deletions, and feed streams to new items, from any replica (PostgreSQL NOTIFY). */
  async function followRevocations(): Promise<() => Promise<void>> {
    const stops = await Promise.all([auth.sessions.listen(), customers.sessions.listen(), registry.listen(), feed.listen()])
    return async () => {
      await Promise.all(stops.map((stop) => stop()))
    }
  }

  return Object.assign(app, { services: { auth, settings, team, registry, customers, storage, persona, chat, personaMemory, search, site, messaging, notifications, community, feed, webhooks, monitor }, followRevocations })
}

export type App = ReturnType<typeof createApp>

function validationMessage(error: unknown): string {
  const e = error as { type?: string; valueError?: { path?: string; message?: string }; message?: string }
  // Elysia checks query parameters one by one as type `property`, without naming the parameter.
  const where = e.type === 'property' ? 'query' : (e.type ?? 'request')
  const first = e.valueError
  if (!first) return `Invalid ${where}`
  const field = first.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : ''
  return `${field ? `${where}.${field}` : where}: ${first.message ?? 'invalid value'}`
}
