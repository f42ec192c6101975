import type { Db } from './index'

type Hook = () => void
type Transaction = <T>(fn: (tx: Db) => Promise<T>, config?: unknown) => Promise<T>

/** What a transaction (or savepoint) does when it ends: on commit, and on rollback. */
interface Hooks {
  commit: Hook[]
  rollback: Hook[]
}

/** The hooks of each open transaction (savepoints have their own, handed up when they release). */
const pending = new WeakMap<Db, Hooks>()

/**
 * Makes `db.transaction` (and every nested `tx.transaction`) keep hooks: after-commit ones run once
 * the outermost transaction has committed, in the order they were added, and a rolled-back
 * transaction or savepoint drops them; after-rollback ones run when the transaction or savepoint
 * they were added in (or one around it) rolls back, and are dropped at the outermost commit.
 * Applied once to each database's Drizzle instance (platform/db).
 */
export function trackCommits(db: Db): Db {
  wrap(db, (hooks) => {
    for (const hook of hooks.commit) hook()
  })
  return db
}

function wrap(target: Db, settle: (hooks: Hooks) => void): void {
  const original = (target.transaction as Transaction).bind(target)
  const transaction: Transaction = async (fn, config) => {
    const hooks: Hooks = { commit: [], rollback: [] }
    let result: Awaited<ReturnType<typeof fn>>
    try {
      result = await original(async (tx: Db) => {
        pending.set(tx, hooks)
        wrap(tx, (inner) => {
          hooks.commit.push(...inner.commit)
          hooks.rollback.push(...inner.rollback)
        })
        return fn(tx)
      }, config)
    } catch (err) {
      for (const hook of hooks.rollback) hook()
      throw err
    }
    settle(hooks)
    return result
  }
  ;(target as unknown as { transaction: Transaction }).transaction = transaction
}

/**
 * Runs `hook` after `db`'s transaction commits (not at all if it rolls back). Outside a transaction,
 * where each statement commits as it runs, `hook` runs at once. A hook must not throw: the change it
 * follows is already committed.
 */
export function afterCommit(db: Db, hook: Hook): void {
  const hooks = pending.get(db)
  if (hooks) hooks.commit.push(hook)
  else hook()
}

/**
 * Runs `hook` if `db`'s transaction rolls back (or the savepoint it is, or one around it), to undo
 * what was done in memory alongside it; outside a transaction it is never needed. Must not throw.
 */
export function afterRollback(db: Db, hook: Hook): void {
  pending.get(db)?.rollback.push(hook)
}
