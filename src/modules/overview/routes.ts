import { Elysia } from 'elysia'
import type { Guards } from '../../platform/guards'
import { UsageOverview } from './model'
import type { OverviewService } from './service'

/** The ecosystem at a glance (tag `usage`, beside storage use). */
export function overviewRoutes(overview: OverviewService, guards: Guards) {
  return new Elysia({ name: 'overview', prefix: '/usage', detail: { tags: ['usage'] } })
    .use(guards.tenancy)
    .get('/overview', ({ tenant }) => overview.of(tenant), {
      tenant: 'admin',
      response: { 200: UsageOverview },
      detail: {
        operationId: 'usageOverview',
        summary: 'The ecosystem at a glance',
        description:
          'What the console’s Overview shows: how many customers, storage used against the sum of their quotas, team members’ own files included (and how many are at 90 % or more of theirs), the last 7 UTC days of customer and team member sign-ins, chat messages, messages sent and webhook failures (oldest first, today so far last), monitored sites down now, and the 10 newest items of the customers’ site feeds. Ecosystem admins and owners.',
      },
    })
}
