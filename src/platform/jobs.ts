import type { Db } from './db'

export interface JobReport {
  [count: string]: number
}

/**
 * One scheduled job: a croner pattern and a handler run under its advisory lock. Areas define theirs
 * in `<module>/jobs.ts`; jobs/index.ts schedules them. `D` is what the job reads of the app's deps
 * (the scheduler passes all of them).
 */
export interface Job<D> {
  name: string
  /** A croner pattern; a function of the configuration for a job the operator schedules (null: not scheduled). */
  schedule: string | ((deps: D) => string | null)
  /**
   * `transaction` (the default): `run` gets the transaction that holds the lock. `session`: for
   * jobs that wait on the network, the lock is held with no transaction open and `run` gets
   * `deps.db`, opening short transactions of its own. `none`: every replica runs it, for work on
   * its own disk; `run` gets `deps.db`.
   */
  lock?: 'transaction' | 'session' | 'none'
  run(deps: D, db: Db): Promise<JobReport>
}
