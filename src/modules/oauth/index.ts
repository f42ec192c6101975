import { defineModule } from '../module'
import { OAUTH_AUDIT } from './events'
import { OAUTH_ERRORS } from './errors'
import { purgeOAuth } from './jobs'
import { oauthSecuritySchemes } from './model'
import { oauthRoutes } from './routes'
import { FORM_BODY_PATHS } from './routes/token'
import { OauthService } from './service'

declare module '../module' {
  interface Services {
    oauth: OauthService
  }
}

export default defineModule({
  name: 'oauth',
  tags: {
    oauth:
      'The OAuth 2.1 authorization server: clients (secrets shown once), authorization code with PKCE, token exchange, refresh and revocation, grants, and the server metadata.',
  },
  errors: OAUTH_ERRORS,
  audit: OAUTH_AUDIT,
  jobs: [purgeOAuth],
  http: { formBodyPaths: FORM_BODY_PATHS, securitySchemes: oauthSecuritySchemes },
  setup: (ctx) => {
    const auth = ctx.use('auth')
    const oauth = new OauthService(ctx.deps, auth, ctx.use('audit'))
    const owner = async (id: string) => {
      const userId = await oauth.clients.ownerOf(id)
      return userId ? { userId } : null
    }
    return {
      services: oauth,
      extends: { tokenKinds: { oauth: (claims) => oauth.tokens.resolve(claims) }, entityTypes: { oauth_client: owner } },
      routes: () => [oauthRoutes(oauth, ctx.guards, ctx.deps.config.oauth.consentUrl)],
    }
  },
})
