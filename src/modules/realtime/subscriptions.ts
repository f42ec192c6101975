import { isRowsChanged, type RowChange } from '../../platform/changes'
import { subscriber } from '../module'
import type { RealtimeService } from './service'

const { each } = subscriber<RealtimeService>()

export const REALTIME_SUBSCRIPTIONS = [
  each('every `<area>.rows.changed`', isRowsChanged, "puts the changes in the streams' outbox", (realtime) => (tx, { ecosystemId, payload }) => {
    const { topic, changes } = payload as { topic: string; changes: RowChange[] }
    return realtime.record(tx, ecosystemId!, topic, changes)
  }),
]
