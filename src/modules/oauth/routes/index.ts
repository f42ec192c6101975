import { Elysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import type { OauthService } from '../service'
import { authorizeRoutes } from './authorize'
import { clientRoutes } from './clients'
import { grantRoutes } from './grants'
import { tokenRoutes } from './token'

/** Every route of the OAuth area. */
export function oauthRoutes(oauth: OauthService, guards: Guards, consentUrl: string | null) {
  return new Elysia({ name: 'oauth' })
    .use(clientRoutes(oauth, guards))
    .use(grantRoutes(oauth, guards))
    .use(authorizeRoutes(oauth, guards, consentUrl))
    .use(tokenRoutes(oauth, guards))
}
