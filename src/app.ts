import { Elysia } from 'elysia'
import type { Deps } from './deps'
import { AppError, errorBody } from './platform/errors'
import { requestContext } from './platform/http'
import { openApiPlugin } from './platform/openapi'
import { authRoutes } from './modules/auth/routes'
import { AuthService } from './modules/auth/service'
import { oauthSecuritySchemes } from './modules/oauth/model'
import { oauthRoutes } from './modules/oauth/routes'
import { OAuthService } from './modules/oauth/service'
import { settingsRoutes } from './modules/settings/routes'
import { SettingsService } from './modules/settings/service'
import { systemRoutes } from './modules/system/routes'
import { SystemService } from './modules/system/service'
import pkg from '../package.json'

export const API_DESCRIPTION = `Ecobase: a multi-tenant backend service (accounts, OAuth, chat, storage, ...).

Errors answer \`{ "error": { "message", "code" } }\` with a stable snake_case code: \`validation_failed\` (400, the message names the field), \`invalid_json\` (400), \`unauthorized\` / \`token_expired\` (401), \`forbidden\` (403), \`not_found\` (404), \`payload_too_large\` (413), \`rate_limited\` (429, with Retry-After), and per-route codes named in each operation.
Lists answer \`{ items, total, page, pageSize }\`; \`page\` starts at 1, \`pageSize\` defaults to 20 and is at most 100.
Every response carries \`X-Request-Id\` (the caller's, when it sends a well-formed one).
Account access tokens live ACCESS_TOKEN_TTL_SECONDS (default 900 s).`

const TAGS = [
  'auth', 'billing', 'chat', 'community', 'contract', 'customer', 'data', 'ecosystems', 'integrations', 'messaging',
  'monitored_sites', 'notifications', 'oauth', 'persona', 'persona_memory', 'public', 'registry', 'search', 'settings',
  'site', 'storage', 'team', 'usage', 'userdata',
]

/** Builds the HTTP app from deps; no I/O of its own, so tests build it with other deps. */
export function createApp(deps: Deps) {
  const settings = new SettingsService(deps)
  const auth = new AuthService(deps, settings)
  const oauth = new OAuthService(deps, auth)
  auth.acceptTokenKind('oauth', (claims) => oauth.tokens.resolve(claims))
  const system = new SystemService(deps)

  const app = new Elysia()
    .use(
      openApiPlugin({
        info: { title: 'Ecobase API', version: pkg.version, description: API_DESCRIPTION },
        tags: TAGS.map((name) => ({ name })),
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT or eco_ API token' }, ...oauthSecuritySchemes },
        },
      }),
    )
    .use(requestContext(deps))
    .onError({ as: 'global' }, ({ code, error, set, status }) => {
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
      deps.logger.error('unhandled error', { code: String(code), error: String((error as Error)?.stack ?? error) })
      return status(500, errorBody('internal_error', 'Internal server error'))
    })
    .use(systemRoutes(system))
    .use(authRoutes(deps, auth))
    .use(settingsRoutes(settings, auth))
    .use(oauthRoutes(deps, oauth, auth))

  return Object.assign(app, { services: { auth, settings } })
}

export type App = ReturnType<typeof createApp>

function validationMessage(error: unknown): string {
  const e = error as { type?: string; valueError?: { path?: string; message?: string }; message?: string }
  const where = e.type ?? 'request'
  const first = e.valueError
  if (!first) return `Invalid ${where}`
  const field = first.path ? first.path.replace(/^\//, '').replaceAll('/', '.') : ''
  return `${field ? `${where}.${field}` : where}: ${first.message ?? 'invalid value'}`
}
