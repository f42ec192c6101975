import { and, isNotNull, lt, or } from 'drizzle-orm'
import { oauthCodes, oauthGrants, oauthRefreshTokens } from './schema'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

const DAY_MS = 24 * 3600 * 1000
/** Expired codes are kept a day, so a late replay is still recognised as one and revokes its grant. */
const CODE_KEEP_MS = DAY_MS
/** Ended grants, and refresh tokens used long ago, are kept a week (audit, replay answers), then purged. */
const KEEP_MS = 7 * DAY_MS

export const purgeOAuth: Job<Pick<Deps, 'now'>> = {
  name: 'purge-oauth',
  schedule: '23 * * * *',
  async run(deps, tx) {
    const now = deps.now().getTime()
    const codes = await tx
      .delete(oauthCodes)
      .where(lt(oauthCodes.expiresAt, new Date(now - CODE_KEEP_MS)))
      .returning({ id: oauthCodes.id })
    const before = new Date(now - KEEP_MS)
    const grants = await tx
      .delete(oauthGrants)
      .where(or(lt(oauthGrants.expiresAt, before), and(isNotNull(oauthGrants.revokedAt), lt(oauthGrants.revokedAt, before))))
      .returning({ id: oauthGrants.id })
    // A live grant refreshed hourly would otherwise keep every token it ever rotated.
    const tokens = await tx.delete(oauthRefreshTokens).where(lt(oauthRefreshTokens.usedAt, before)).returning({ id: oauthRefreshTokens.id })
    return { codes: codes.length, grants: grants.length, refreshTokens: tokens.length }
  },
}
