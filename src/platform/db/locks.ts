import { sql } from 'drizzle-orm'
import { queryRows, type Database, type Db } from './index'

/**
 * Runs `fn` in a transaction holding the advisory lock named `name`, or returns `skipped` when
 * another replica holds it. The lock ends with the transaction, so a crashed holder frees it.
 */
export async function withAdvisoryLock<T>(db: Db, name: string, fn: (tx: Db) => Promise<T>): Promise<{ skipped: true } | { skipped: false; value: T }> {
  return db.transaction(async (tx) => {
    const [row] = await queryRows<{ locked: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${name})) as locked`)
    if (!row?.locked) return { skipped: true } as const
    return { skipped: false, value: await fn(tx) } as const
  })
}

/**
 * Waits for the advisory lock `name` and holds it until `tx` ends: serialises one piece of work
 * across replicas (the first account's admin check, an ecosystem's contract definitions). The key is
 * `hashtext(name)`, as the other forms here take it and as SQL written elsewhere (a trigger) can.
 */
export async function lockInTransaction(tx: Db, name: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`)
}

/**
 * Runs `fn` holding the session-level advisory lock `name` with no transaction open, or returns
 * `skipped` when another replica holds it: for work that waits on the network, which must not
 * keep a transaction (on PGlite: the whole database) waiting.
 */
export async function withSessionLock<T>(database: Database, name: string, fn: () => Promise<T>): Promise<{ skipped: true } | { skipped: false; value: T }> {
  const release = await database.tryLock(name)
  if (!release) return { skipped: true }
  try {
    return { skipped: false, value: await fn() }
  } finally {
    await release()
  }
}
