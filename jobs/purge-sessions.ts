import { and, isNotNull, lt, or } from 'drizzle-orm'
import { sessions } from '../src/modules/auth/schema'
import type { Job } from './types'

/** Revoked or expired sessions are kept this long (for audit and replay answers), then purged. */
const KEEP_MS = 7 * 24 * 3600 * 1000

export const purgeSessions: Job = {
  name: 'purge-sessions',
  schedule: '17 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - KEEP_MS)
    const purged = await tx
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, before), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before))))
      .returning({ id: sessions.id })
    return { sessions: purged.length }
  },
}
