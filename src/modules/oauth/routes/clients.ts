import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { CreateClientBody, OAuthClient, OAuthClientCreated, UpdateClientBody } from '../model'
import type { OauthService } from '../service'
import { IdParam } from '../../../platform/params'

/** Client applications, managed by the account that registered them (account credentials only). */
export function clientRoutes(oauth: OauthService, guards: Guards) {
  const clients = oauth.clients
  return new Elysia({ name: 'oauth-clients', prefix: '/oauth/clients', detail: { tags: ['oauth'] } })
    .use(guards.auth)
    .post('', async ({ principal, body, status }) => status(201, await clients.create(principal, body)), {
      auth: true,
      body: CreateClientBody,
      response: { 201: OAuthClientCreated, ...errors(401, { 400: ['validation_failed', 'invalid_redirect_uri', 'invalid_scope'] }) },
      detail: {
        operationId: 'oauthCreateClient',
        summary: 'Register a client application',
        description:
          '`clientSecret` is returned exactly once and stored only as a hash; keep it on your server. Redirect URIs must be absolute https URLs (http only on a loopback host), without fragment: 400 `invalid_redirect_uri`. Unknown scopes: 400 `invalid_scope`.',
      },
    })
    .get('', ({ principal, query }) => clients.list(principal.userId, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(OAuthClient, 'OAuthClientPage'), ...errors(400, 401) },
      detail: {
        operationId: 'oauthListClients',
        summary: "The caller's client applications (newest first; never the secret)",
        description:
          'The OAuth client applications the signed-in account registered, with their redirect URIs and allowed scopes. The client secret was shown once, at creation.',
      },
    })
    .get('/:id', ({ principal, params }) => clients.get(principal.userId, params.id), {
      auth: true,
      params: IdParam,
      response: { 200: OAuthClient, ...errors(400, 401, 404) },
      detail: {
        operationId: 'oauthGetClient',
        summary: 'One of the caller’s client applications',
        description: 'Another account’s client or an unknown id: 404.',
      },
    })
    .patch('/:id', ({ principal, params, body }) => clients.update(principal, params.id, body), {
      auth: true,
      params: IdParam,
      body: UpdateClientBody,
      response: { 200: OAuthClient, ...errors(401, 404, { 400: ['validation_failed', 'invalid_redirect_uri', 'invalid_scope'] }) },
      detail: {
        operationId: 'oauthUpdateClient',
        summary: 'Rename a client or change its redirect URIs or scopes',
        description: 'Removing a scope also removes it from existing grants at their next refresh.',
      },
    })
    .delete(
      '/:id',
      async ({ principal, params, status }) => {
        await clients.remove(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted, with every grant and token issued to it' }), ...errors(400, 401, 404) },
        detail: {
          operationId: 'oauthDeleteClient',
          summary: 'Delete a client application and end all its grants',
          description:
            'Every grant users gave it ends with it: its access tokens are refused at their next use and its refresh tokens stop working. Another account’s client or an unknown id: 404. Recorded in the audit log.',
        },
      },
    )
    .post('/:id/secret', ({ principal, params }) => clients.rotateSecret(principal, params.id), {
      auth: true,
      params: IdParam,
      response: { 200: OAuthClientCreated, ...errors(400, 401, 404) },
      detail: {
        operationId: 'oauthRotateClientSecret',
        summary: 'Replace the client secret',
        description: 'The new `clientSecret` is returned exactly once; the old one stops working at once. Issued tokens stay valid.',
      },
    })
}
