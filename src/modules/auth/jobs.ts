import { sessions, refreshTokens } from './schema'
import { purgeSessionTables, SESSION_KEEP_MS } from '../../platform/sessions'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Account sessions ended, and their refresh tokens used, over a week ago (OAuth grants have purge-oauth; customers' purge-customer-sessions). */
export const purgeSessions: Job<Pick<Deps, 'now'>> = {
  name: 'purge-sessions',
  schedule: '17 * * * *',
  async run(deps, tx) {
    return purgeSessionTables(tx, { sessions, refreshTokens }, new Date(deps.now().getTime() - SESSION_KEEP_MS))
  },
}
