import { customerRefreshTokens, customerSessions } from './schema'
import { purgeSessionTables, SESSION_KEEP_MS } from '../../platform/sessions'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Customer sessions ended, and their refresh tokens used, over a week ago. */
export const purgeCustomerSessions: Job<Pick<Deps, 'now'>> = {
  name: 'purge-customer-sessions',
  schedule: '19 * * * *',
  async run(deps, tx) {
    const purged = await purgeSessionTables(
      tx,
      { sessions: customerSessions, refreshTokens: customerRefreshTokens },
      new Date(deps.now().getTime() - SESSION_KEEP_MS),
    )
    return { customerSessions: purged.sessions, customerRefreshTokens: purged.refreshTokens }
  },
}
