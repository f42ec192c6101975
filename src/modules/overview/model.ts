import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { Int } from '../../platform/numbers'

const Count = (description: string) => Int({ minimum: 0, description })

export const OverviewDay = t.Object(
  {
    day: t.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD' }),
    signIns: Count('Customer sessions started (sign-ins, refresh-token sign-ups, support sessions)'),
    memberSignIns: Count(
      "Sign-ins of the organization's team members (account sessions begun: the console, the API with a password); a member's sign-in counts in each ecosystem of the organization",
    ),
    chatMessages: Count('Messages customers sent in chat'),
    messagesSent: Count('E-mails and texts that left (sent or delivered)'),
    webhookFailures: Count('Webhook deliveries made that day that failed for good'),
  },
  { title: 'UsageOverviewDay' },
)

export const UsageOverview = t.Object(
  {
    customers: Count('Customers of the ecosystem (the records the service keeps for team members and alert contacts are not counted)'),
    storage: t.Object(
      {
        usedBytes: Count(
          'Bytes of ready, non-deleted attachments of every customer and team member in the ecosystem (a member’s own uploads, e.g. from the console, count)',
        ),
        quotaBytes: Count('The sum of the quotas of every customer and team member in the ecosystem (their override, else STORAGE_DEFAULT_QUOTA_BYTES)'),
        customersNearQuota: Count('Customers and team members using 90 % of their quota or more'),
      },
      { title: 'UsageOverviewStorage' },
    ),
    days: t.Array(OverviewDay, { description: 'The last 7 UTC days, oldest first, today last (so far)' }),
    sitesDown: t.Array(
      t.Object(
        { id: t.String({ format: 'uuid' }), name: t.String(), url: t.String(), since: t.Union([Timestamp, t.Null()]) },
        { title: 'UsageOverviewSiteDown' },
      ),
      { description: 'Monitored sites down now, longest first' },
    ),
    recent: t.Array(
      t.Object(
        {
          id: t.String({ format: 'uuid' }),
          customerId: t.String({ format: 'uuid' }),
          source: t.String(),
          action: t.String(),
          summary: t.String(),
          createdAt: Timestamp,
        },
        { title: 'UsageOverviewActivity' },
      ),
      { description: 'The 10 newest items of the customers’ site feeds, newest first' },
    ),
  },
  {
    title: 'UsageOverview',
    examples: [
      {
        customers: 128,
        storage: { usedBytes: 734003200, quotaBytes: 687194767360, customersNearQuota: 2 },
        days: [
          { day: '2026-11-20', signIns: 14, memberSignIns: 3, chatMessages: 52, messagesSent: 6, webhookFailures: 0 },
          { day: '2026-11-21', signIns: 17, memberSignIns: 4, chatMessages: 61, messagesSent: 9, webhookFailures: 0 },
          { day: '2026-11-22', signIns: 9, memberSignIns: 2, chatMessages: 30, messagesSent: 4, webhookFailures: 0 },
          { day: '2026-11-23', signIns: 11, memberSignIns: 3, chatMessages: 44, messagesSent: 3, webhookFailures: 1 },
          { day: '2026-11-24', signIns: 21, memberSignIns: 5, chatMessages: 70, messagesSent: 12, webhookFailures: 0 },
          { day: '2026-11-25', signIns: 19, memberSignIns: 4, chatMessages: 66, messagesSent: 8, webhookFailures: 0 },
          { day: '2026-11-26', signIns: 7, memberSignIns: 1, chatMessages: 23, messagesSent: 2, webhookFailures: 0 },
        ],
        sitesDown: [],
        recent: [
          {
            id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
            customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
            source: 'community',
            action: 'created',
            summary: 'New reply to your thread “Best cafés near the river?”',
            createdAt: '2026-11-26T09:00:00.000Z',
          },
        ],
      },
    ],
  },
)
