import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { queryRows } from '../../platform/db'
import type { Job } from '../../platform/jobs'
import { changes, commits, purged, tickets } from './schema'

/**
 * Changes older than REALTIME_RETENTION_HOURS are deleted, and the newest position deleted is kept
 * (a stream resuming from before it gets `reset`); expired stream tickets go too.
 */
export const purgeRealtime: Job<Pick<Deps, 'now' | 'config'>> = {
  name: 'purge-realtime',
  schedule: '*/10 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.realtimeRetentionHours * 3600 * 1000)
    // Whole transactions, a prefix of commit order: every place up to the newest one committed before the cut.
    const [gone] = await queryRows<{ n: number }>(
      tx,
      sql`with cut as (select max(pos) as pos from ${commits} where committed_at < ${before.toISOString()}::timestamptz),
               dropped as (delete from ${commits} where pos <= (select pos from cut) returning tx, pos),
               rows as (delete from ${changes} where tx in (select tx from dropped) returning tx, seq),
               last as (select d.pos, r.seq from rows r join dropped d on d.tx = r.tx order by d.pos desc, r.seq desc limit 1),
               kept as (insert into ${purged} (id, pos, seq) select 1, pos, seq from last
                        on conflict (id) do update set pos = excluded.pos, seq = excluded.seq
                        where (${purged.pos}, ${purged.seq}) < (excluded.pos, excluded.seq) returning 1)
          select (select count(*)::int from rows) as n`,
    )
    const expired = await tx.delete(tickets).where(sql`${tickets.expiresAt} < ${deps.now().toISOString()}::timestamptz`).returning({ hash: tickets.hash })
    return { changes: gone?.n ?? 0, tickets: expired.length }
  },
}
