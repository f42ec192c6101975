import { defineAuditActions } from '../../platform/events'

/** The audit actions site records (GET /audit/events). */
export const SITE_AUDIT = defineAuditActions('site', {
  'site.service.created': 'A site service (provider settings) was added',
  'site.service.updated': 'A site service changed',
  'site.service.deleted': 'A site service was deleted',
})
