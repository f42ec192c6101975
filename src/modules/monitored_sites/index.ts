import { defineModule } from '../module'
import { MONITORED_SITES_ERRORS } from './errors'
import { MONITORED_SITES_EVENTS } from './events'
import { checkSites, pruneSiteChecks } from './jobs'
import { monitoredSiteRoutes } from './routes'
import { MonitoredSitesService } from './service'

declare module '../module' {
  interface Services {
    monitored_sites: MonitoredSitesService
  }
}

export default defineModule({
  name: 'monitored_sites',
  tags: {
    monitored_sites:
      'Uptime checks. An ecosystem’s admins watch http(s) URLs at 1–60 minute intervals; each due time is checked once across replicas (a GET through the outbound address guard: expected status, optional keyword, timeout, TLS certificate days left). `failureThreshold` failed checks in a row (default 2) make a site `down`, a good one `up`; each change writes a feed item and an e-mailed notification for the admins and owners (at their account address) and the site’s `alertEmails`, and the webhook event `monitored_site.down` / `.up`. Checks are kept 31 days; each site shows time-weighted uptime % and p95 latency over 24 h, 7 and 30 days.',
  },
  errors: MONITORED_SITES_ERRORS,
  events: MONITORED_SITES_EVENTS,
  jobs: [checkSites, pruneSiteChecks],
  setup: (ctx) => {
    const monitor = new MonitoredSitesService(ctx.deps, ctx.bus)
    return { services: monitor, queues: monitor.queueHandlers(), routes: () => [monitoredSiteRoutes(monitor, ctx.guards)] }
  },
})
