import { t } from 'elysia'
import { defineAuditActions, defineEvent } from '../../platform/events'
import { Int } from '../../platform/numbers'

export const attachmentReady = defineEvent('storage.attachment.ready', {
  description: 'An upload completed and counts toward its owner’s quota.',
  payload: t.Object({ id: t.String(), customerId: t.Union([t.String(), t.Null()]), filename: t.String(), contentType: t.String(), sizeBytes: Int() }),
  webhook: 'storage.attachment.ready',
})

export const STORAGE_EVENTS = [attachmentReady]

/** The audit actions storage records (GET /audit/events). */
export const STORAGE_AUDIT = defineAuditActions('storage', {
  'storage.quota.set': 'A customer’s storage quota was set',
  'storage.quota.removed': 'A customer’s storage quota was removed (the default applies)',
  'storage.attachment.deleted': 'An ecosystem admin deleted a customer’s file (its bytes stop counting toward the customer’s quota at once)',
})
