import { lt } from 'drizzle-orm'
import { mfaFailures, sessions, refreshTokens } from './schema'
import { purgeSessionTables, SESSION_KEEP_MS } from '../../platform/sessions'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Wrong second-factor answers are kept a day, or one window (LOGIN_FAILURE_WINDOW_SECONDS) when longer: the throttle and the e-mail look back one window. */
const MFA_FAILURES_KEEP_MS = 24 * 3600 * 1000

/**
 * Account sessions ended, and their refresh tokens used, over a week ago (OAuth grants have
 * purge-oauth; customers' purge-customer-sessions), and wrong second-factor answers over a day old.
 */
export const purgeSessions: Job<Pick<Deps, 'config' | 'now'>> = {
  name: 'purge-sessions',
  schedule: '17 * * * *',
  async run(deps, tx) {
    const purged = await purgeSessionTables(tx, { sessions, refreshTokens }, new Date(deps.now().getTime() - SESSION_KEEP_MS))
    const keepMs = Math.max(MFA_FAILURES_KEEP_MS, deps.config.loginLimits.failureWindow * 1000)
    const failures = await tx
      .delete(mfaFailures)
      .where(lt(mfaFailures.at, new Date(deps.now().getTime() - keepMs)))
      .returning({ id: mfaFailures.id })
    return { ...purged, mfaFailures: failures.length }
  },
}
