import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { queryRows } from '../../platform/db'
import type { Job } from '../../platform/jobs'
import { changes, purged, tickets } from './schema'

/**
 * Changes older than REALTIME_RETENTION_HOURS are deleted, and the newest position deleted is kept
 * (a stream resuming from before it gets `reset`); expired stream tickets go too.
 */
export const purgeRealtime: Job<Pick<Deps, 'now' | 'config'>> = {
  name: 'purge-realtime',
  schedule: '*/10 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.realtimeRetentionHours * 3600 * 1000)
    const [gone] = await queryRows<{ n: number }>(
      tx,
      sql`with gone as (delete from ${changes} where at < ${before.toISOString()}::timestamptz returning tx, seq),
               last as (select tx, seq from gone order by tx desc, seq desc limit 1),
               kept as (insert into ${purged} (id, tx, seq) select 1, tx, seq from last
                        on conflict (id) do update set tx = excluded.tx, seq = excluded.seq
                        where (${purged.tx}, ${purged.seq}) < (excluded.tx, excluded.seq) returning 1)
          select (select count(*)::int from gone) as n`,
    )
    const expired = await tx.delete(tickets).where(sql`${tickets.expiresAt} < ${deps.now().toISOString()}::timestamptz`).returning({ hash: tickets.hash })
    return { changes: gone?.n ?? 0, tickets: expired.length }
  },
}
