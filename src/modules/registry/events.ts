import { defineAuditActions } from '../../platform/events'

/** The audit actions registry records (GET /audit/events). */
export const REGISTRY_AUDIT = defineAuditActions('registry', {
  'registry.organization.created': 'An organization was provisioned with its first ecosystem',
  'registry.ecosystem.created': 'An ecosystem was created',
  'registry.ecosystem.updated': 'An ecosystem changed',
  'registry.ecosystem.deleted': 'An ecosystem was deleted',
})
