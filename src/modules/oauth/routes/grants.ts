import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../../../platform/errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { OAuthGrant } from '../model'
import type { OauthService } from '../service'
import { IdParam } from '../../../platform/params'

/** The applications a user has authorized (account credentials only). */
export function grantRoutes(oauth: OauthService, guards: Guards) {
  return new Elysia({ name: 'oauth-grants', prefix: '/oauth/grants', detail: { tags: ['oauth'] } })
    .use(guards.auth)
    .get('', ({ principal, query }) => oauth.grants.list(principal.userId, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(OAuthGrant, 'OAuthGrantPage'), ...errors(400, 401) },
      detail: {
        operationId: 'oauthListGrants',
        summary: 'Applications the caller has authorized (live grants, newest first)',
        description:
          'Each live grant: the client application, the scopes granted and when. Revoking one (DELETE /oauth/grants/{id}) ends its tokens. Account credentials only: an OAuth access token cannot list grants.',
      },
    })
    .delete(
      '/:id',
      async ({ principal, params, status }) => {
        await oauth.grants.removeForUser(principal.userId, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Revoked' }), ...errors(400, 401, 404) },
        detail: {
          operationId: 'oauthRevokeGrant',
          summary: 'Revoke an authorized application',
          description: 'Its refresh token and access tokens stop working at once.',
        },
      },
    )
}
