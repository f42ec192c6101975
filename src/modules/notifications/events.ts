import { rowsChanged } from '../../platform/changes'

export const notificationRowsChanged = rowsChanged('notifications')

export const NOTIFICATION_EVENTS = [notificationRowsChanged]
