import { Elysia } from 'elysia'
import type { Deps } from '../../../deps'
import type { PrincipalSource } from '../../../platform/auth'
import type { OAuthService } from '../service'
import { authorizeRoutes } from './authorize'
import { clientRoutes } from './clients'
import { grantRoutes } from './grants'
import { tokenRoutes } from './token'

/** Every route of the OAuth area. */
export function oauthRoutes(deps: Deps, oauth: OAuthService, principals: PrincipalSource) {
  return new Elysia({ name: 'oauth' })
    .use(clientRoutes(oauth, principals))
    .use(grantRoutes(oauth, principals))
    .use(authorizeRoutes(deps, oauth, principals))
    .use(tokenRoutes(oauth, principals))
}
