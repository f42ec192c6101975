import { defineModule } from '../module'
import { OAUTH_ERRORS } from './errors'
import { purgeOAuth } from './jobs'
import { oauthSecuritySchemes } from './model'
import { oauthRoutes } from './routes'
import { FORM_BODY_PATHS } from './routes/token'
import { OAuthService } from './service'

export default defineModule({
  name: 'oauth',
  tags: {
    oauth:
      'The OAuth 2.1 authorization server: clients (secrets shown once), authorization code with PKCE, token exchange, refresh and revocation, grants, and the server metadata.',
  },
  errors: OAUTH_ERRORS,
  jobs: [purgeOAuth],
  http: { formBodyPaths: FORM_BODY_PATHS, securitySchemes: oauthSecuritySchemes },
  setup: (ctx) => {
    const auth = ctx.use('auth')
    const oauth = new OAuthService(ctx.deps, auth)
    auth.acceptTokenKind('oauth', (claims) => oauth.tokens.resolve(claims))
    ctx.use('registry').identifiers.acceptEntityType('oauth_client', async (id) => {
      const userId = await oauth.clients.ownerOf(id)
      return userId ? { userId } : null
    })
    return { routes: () => [oauthRoutes(oauth, ctx.guards, ctx.deps.config.oauth.consentUrl)] }
  },
})
