import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const attachmentReady = defineEvent('storage.attachment.ready', {
  description: 'An upload completed and counts toward its owner’s quota.',
  payload: t.Object({ id: t.String(), customerId: t.Union([t.String(), t.Null()]), filename: t.String(), contentType: t.String(), sizeBytes: t.Integer() }),
  webhook: 'storage.attachment.ready',
})

export const STORAGE_EVENTS = [attachmentReady]
