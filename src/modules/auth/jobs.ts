import { sessions, refreshTokens } from './schema'
import { customerRefreshTokens, customerSessions } from '../customer/schema'
import { purgeSessionTables } from '../../platform/sessions'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Ended sessions and used refresh tokens are kept this long (audit, replay answers), then purged. */
const KEEP_MS = 7 * 24 * 3600 * 1000

/** Account and customer sessions (OAuth grants have purge-oauth). */
export const purgeSessions: Job<Pick<Deps, 'now'>> = {
  name: 'purge-sessions',
  schedule: '17 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - KEEP_MS)
    const accounts = await purgeSessionTables(tx, { sessions, refreshTokens }, before)
    const customers = await purgeSessionTables(tx, { sessions: customerSessions, refreshTokens: customerRefreshTokens }, before)
    return {
      sessions: accounts.sessions,
      refreshTokens: accounts.refreshTokens,
      customerSessions: customers.sessions,
      customerRefreshTokens: customers.refreshTokens,
    }
  },
}
