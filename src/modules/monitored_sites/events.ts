import { t } from 'elysia'
import { defineEvent } from '../../platform/events'
import { Int } from '../../platform/numbers'

const StatusCode = t.Union([Int(), t.Null()])

export const siteDown = defineEvent('monitored_sites.site.down', {
  description: 'A monitored site failed its `failureThreshold` of checks in a row.',
  payload: t.Object({
    siteId: t.String(),
    name: t.String(),
    url: t.String(),
    error: t.Union([t.String(), t.Null()]),
    statusCode: StatusCode,
    failures: Int({ description: 'Failed checks in a row' }),
  }),
  webhook: 'monitored_site.down',
})

export const siteUp = defineEvent('monitored_sites.site.up', {
  description: 'A monitored site that was down answered as expected again.',
  payload: t.Object({ siteId: t.String(), name: t.String(), url: t.String(), statusCode: StatusCode }),
  webhook: 'monitored_site.up',
})

export const MONITORED_SITES_EVENTS = [siteDown, siteUp]
