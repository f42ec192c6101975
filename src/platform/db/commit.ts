import type { Db } from './index'

type Hook = () => void
type Transaction = <T>(fn: (tx: Db) => Promise<T>, config?: unknown) => Promise<T>

/** The after-commit hooks of each open transaction (savepoints have their own, handed up when they release). */
const pending = new WeakMap<Db, Hook[]>()

/**
 * Makes `db.transaction` (and every nested `tx.transaction`) keep a list of hooks that run once the
 * outermost transaction has committed, in the order they were added; a rolled-back transaction or
 * savepoint drops its hooks. Applied once to each database's Drizzle instance (platform/db).
 */
export function trackCommits(db: Db): Db {
  wrap(db, (hooks) => {
    for (const hook of hooks) hook()
  })
  return db
}

function wrap(target: Db, settle: (hooks: Hook[]) => void): void {
  const original = (target.transaction as Transaction).bind(target)
  const transaction: Transaction = async (fn, config) => {
    const hooks: Hook[] = []
    const result = await original(async (tx: Db) => {
      pending.set(tx, hooks)
      wrap(tx, (inner) => hooks.push(...inner))
      return fn(tx)
    }, config)
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
  if (hooks) hooks.push(hook)
  else hook()
}
