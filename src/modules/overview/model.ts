import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'

const Count = (description: string) => t.Integer({ minimum: 0, description })

export const OverviewDay = t.Object(
  {
    day: t.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD' }),
    signIns: Count('Customer sessions started (sign-ins, refresh-token sign-ups, support sessions)'),
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
        usedBytes: Count('Bytes of ready, non-deleted attachments of every customer'),
        quotaBytes: Count('The sum of every customer’s quota (their override, else STORAGE_DEFAULT_QUOTA_BYTES)'),
        customersNearQuota: Count('Customers using 90 % of their quota or more'),
      },
      { title: 'UsageOverviewStorage' },
    ),
    days: t.Array(OverviewDay, { description: 'The last 7 UTC days, oldest first, today last (so far)' }),
    sitesDown: t.Array(
      t.Object({ id: t.String({ format: 'uuid' }), name: t.String(), url: t.String(), since: t.Union([Timestamp, t.Null()]) }, { title: 'UsageOverviewSiteDown' }),
      { description: 'Monitored sites down now, longest first' },
    ),
    recent: t.Array(
      t.Object(
        { id: t.String({ format: 'uuid' }), customerId: t.String({ format: 'uuid' }), source: t.String(), action: t.String(), summary: t.String(), createdAt: Timestamp },
        { title: 'UsageOverviewActivity' },
      ),
      { description: 'The 10 newest items of the customers’ site feeds, newest first' },
    ),
  },
  { title: 'UsageOverview' },
)
