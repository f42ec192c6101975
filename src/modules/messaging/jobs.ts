import { lt } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { sendClaims } from './schema'

/** How long a send claim is kept: far past the last retry of the job that made it. */
const CLAIM_DAYS = 7

/** Send claims older than a week are deleted (see sendClaims). */
export const pruneSendClaims: Job<Pick<Deps, 'now'>> = {
  name: 'prune-send-claims',
  schedule: '47 3 * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - CLAIM_DAYS * 24 * 3600 * 1000)
    const gone = await tx.delete(sendClaims).where(lt(sendClaims.claimedAt, before)).returning({ key: sendClaims.key })
    return { sendClaims: gone.length }
  },
}
