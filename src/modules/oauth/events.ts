import { defineAuditActions } from '../../platform/events'

/** The audit actions oauth records (GET /audit/events). */
export const OAUTH_AUDIT = defineAuditActions('oauth', {
  'oauth.client.created': 'An OAuth client was registered',
  'oauth.client.updated': 'An OAuth client changed',
  'oauth.client.deleted': 'An OAuth client was deleted',
  'oauth.client.secret_rotated': 'An OAuth client’s secret was rotated',
})
