import { defineAuditActions } from '../../platform/events'

/** The audit actions settings records (GET /audit/events). */
export const SETTINGS_AUDIT = defineAuditActions('settings', {
  'settings.auth_method.changed': 'A platform sign-in method was turned on or off',
  'settings.admin.granted': 'An account was made a platform admin (`npx ecobase admin`)',
})
