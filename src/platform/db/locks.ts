import { sql } from 'drizzle-orm'
import type { Db } from './index'

/**
 * Runs `fn` in a transaction holding the advisory lock named `name`, or returns `skipped` when
 * another replica holds it. The lock ends with the transaction, so a crashed holder frees it.
 */
export async function withAdvisoryLock<T>(db: Db, name: string, fn: (tx: Db) => Promise<T>): Promise<{ skipped: true } | { skipped: false; value: T }> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(hashtext(${name})) as locked`)
    const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { locked: boolean }[]
    if (!rows[0]?.locked) return { skipped: true } as const
    return { skipped: false, value: await fn(tx) } as const
  })
}
