import { Elysia } from 'elysia'
import type { Guards } from '../../platform/guards'
import { pageParams, PageQuery } from '../../platform/paging'
import { adminResource } from '../../platform/crud/admin'
import { MonitoredSite, MonitoredSiteDetail, MonitoredSitePage, SiteCheck, SiteCheckPage, SiteCreate, SitePatch } from './model'
import type { MonitoredSitesService } from './service'
import { IdParam } from '../../platform/params'

/** Monitored sites (tag `monitored_sites`). */
export function monitoredSiteRoutes(monitor: MonitoredSitesService, guards: Guards) {
  return new Elysia({ name: 'monitored-sites', prefix: '/monitored_sites/sites', detail: { tags: ['monitored_sites'] } })
    .use(guards.auth)
    .use(guards.tenancy)
    .use(
      adminResource(guards, {
        path: '',
        schemas: { page: MonitoredSitePage, create: SiteCreate, item: MonitoredSite, detail: MonitoredSiteDetail, patch: SitePatch },
        service: monitor,
        operations: {
          list: {
            operationId: 'monitoredSitesList',
            summary: 'The ecosystem’s monitored sites, oldest first',
            description: 'Their current state; uptime and latency are on each site.',
          },
          create: {
            operationId: 'monitoredSitesCreate',
            summary: 'Watch a URL',
            description:
              'Checked from the next minute on, then every `intervalMinutes`: a GET that must answer `expectedStatus` within `timeoutMs` (and hold `keyword`, if given). Each due time is checked once, however many replicas run.',
          },
          get: { operationId: 'monitoredSitesGet', summary: 'One site, with uptime % and p95 latency over 24 h, 7 and 30 days' },
          update: { operationId: 'monitoredSitesUpdate', summary: 'Change a site' },
          remove: { operationId: 'monitoredSitesDelete', summary: 'Stop watching a site', deleted: 'Deleted, with its checks' },
        },
      }),
    )
    .get('/:id/checks', ({ tenant, params, query }) => monitor.checks(tenant, params.id, pageParams(query)), {
      tenant: 'admin',
      params: IdParam,
      query: PageQuery,
      response: { 200: SiteCheckPage },
      detail: { operationId: 'monitoredSitesChecks', summary: 'Checks of a site, newest first (kept 31 days)' },
    })
    .post('/:id/check', ({ tenant, params }) => monitor.checkNow(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: SiteCheck },
      detail: {
        operationId: 'monitoredSitesCheckNow',
        summary: 'Check a site now',
        description: `Answers when the check is done (within the site’s timeoutMs); it counts like a scheduled check, state changes included.`,
      },
    })
}
