import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from '../../platform/errors'
import { pageParams, PageQuery } from '../../platform/paging'
import { MonitoredSite, MonitoredSiteDetail, MonitoredSitePage, SiteCheck, SiteCheckPage, SiteCreate, SitePatch } from './model'
import type { MonitoredSites } from './service'
import { IdParam } from '../../platform/params'

const ADMINS = 'Ecosystem admins and owners.'

/** Monitored sites (tag `monitored_sites`). */
export function monitoredSiteRoutes(monitor: MonitoredSites, guards: Guards) {
  return new Elysia({ name: 'monitored-sites', prefix: '/monitored_sites/sites', detail: { tags: ['monitored_sites'] } })
    .use(guards.auth)
    .use(guards.tenancy)
    .get('', ({ tenant, query }) => monitor.list(tenant, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: MonitoredSitePage, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'monitoredSitesList', summary: 'The ecosystem’s monitored sites, oldest first', description: `Their current state; uptime and latency are on each site. ${ADMINS}` },
    })
    .post(
      '',
      async ({ tenant, body, set }) => {
        const created = await monitor.create(tenant, body)
        set.status = 201
        return created
      },
      {
        tenant: 'admin',
        body: SiteCreate,
        response: { 201: MonitoredSite, ...errors(400, 401, 403, 404) },
        detail: {
          operationId: 'monitoredSitesCreate',
          summary: 'Watch a URL',
          description: `Checked from the next minute on, then every \`intervalMinutes\`: a GET that must answer \`expectedStatus\` within \`timeoutMs\` (and hold \`keyword\`, if given). Each due time is checked once, however many replicas run. ${ADMINS}`,
        },
      },
    )
    .get('/:id', ({ tenant, params }) => monitor.get(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: MonitoredSiteDetail, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'monitoredSitesGet', summary: 'One site, with uptime % and p95 latency over 24 h, 7 and 30 days', description: ADMINS },
    })
    .patch('/:id', ({ tenant, params, body }) => monitor.update(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: SitePatch,
      response: { 200: MonitoredSite, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'monitoredSitesUpdate', summary: 'Change a site', description: ADMINS },
    })
    .delete(
      '/:id',
      async ({ tenant, params, status }) => {
        await monitor.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted, with its checks' }), ...errors(400, 401, 403, 404) },
        detail: { operationId: 'monitoredSitesDelete', summary: 'Stop watching a site', description: ADMINS },
      },
    )
    .get('/:id/checks', ({ tenant, params, query }) => monitor.checks(tenant, params.id, pageParams(query)), {
      tenant: 'admin',
      params: IdParam,
      query: PageQuery,
      response: { 200: SiteCheckPage, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'monitoredSitesChecks', summary: 'Checks of a site, newest first (kept 31 days)', description: ADMINS },
    })
    .post('/:id/check', ({ tenant, params }) => monitor.checkNow(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: SiteCheck, ...errors(400, 401, 403, 404) },
      detail: {
        operationId: 'monitoredSitesCheckNow',
        summary: 'Check a site now',
        description: `Answers when the check is done (within the site’s timeoutMs); it counts like a scheduled check, state changes included. ${ADMINS}`,
      },
    })
}
