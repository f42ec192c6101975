import type { Deps } from '../src/deps'
import type { Db } from '../src/platform/db'

export interface JobReport {
  [count: string]: number
}

/** One scheduled job: a croner pattern and a handler run inside its advisory-lock transaction. */
export interface Job {
  name: string
  schedule: string
  run(deps: Deps, tx: Db): Promise<JobReport>
}
