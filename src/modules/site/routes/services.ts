import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { SiteService, SiteServiceUpsert, SLUG_PATTERN } from '../model'
import type { SiteServices } from '../service'

const Slug = t.Object({ slug: t.String({ pattern: SLUG_PATTERN, description: 'Your name for the service, e.g. `mail` or `sms`' }) })
const KINDS_DOC =
  'Kinds and their `config`: `smtp` — `url` (smtp:// or smtps://) or `host` (+ `port`, `secure`), `user`, `pass`, `from`; ' +
  '`twilio` — `accountSid`, `authToken`, and `from` (E.164) or `messagingServiceSid`; `openai` — `apiKey`, `baseUrl`, `model`; `webhook` — `url`, `secret`. ' +
  'An unknown kind or key, or a bad value, is 400 naming the key (never its value). The config is sealed with the server key; responses list only `configKeys`. ' +
  'Ecosystems without an enabled `smtp` or `twilio` service send through the instance defaults (SMTP_URL, TWILIO_*).'

/** Provider settings per ecosystem (tag `site`). */
export function siteRoutes(services: SiteServices, guards: Guards) {
  return new Elysia({ name: 'site', prefix: '/site', detail: { tags: ['site'] } })
    .use(guards.tenancy)
    .get('/services', ({ tenant }) => services.list(tenant), {
      tenant: 'admin',
      response: { 200: t.Array(SiteService, { examples: [SiteService.examples] }) },
      detail: { operationId: 'siteServicesList', summary: "The ecosystem's provider settings" },
    })
    .get('/services/:slug', ({ tenant, params }) => services.get(tenant, params.slug), {
      tenant: 'admin',
      params: Slug,
      response: { 200: SiteService },
      detail: { operationId: 'siteServicesGet', summary: 'One provider setting' },
    })
    .put('/services/:slug', ({ tenant, params, body }) => services.upsert(tenant, params.slug, body), {
      tenant: 'admin',
      params: Slug,
      body: SiteServiceUpsert,
      response: { 200: SiteService },
      detail: { operationId: 'siteServicesUpsert', summary: 'Create or replace a provider setting', description: KINDS_DOC },
    })
    .delete(
      '/services/:slug',
      async ({ tenant, params, status }) => {
        await services.remove(tenant, params.slug)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: Slug,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: { operationId: 'siteServicesDelete', summary: 'Delete a provider setting' },
      },
    )
}
