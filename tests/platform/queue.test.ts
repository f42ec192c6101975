import { afterAll, beforeAll, expect, spyOn, test } from 'bun:test'
import v8 from 'node:v8'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { JobQueue } from '../../src/platform/queue'
import { createHarness, type Harness } from '../support/harness'
import { rejection, until } from '../support/wait'

let h: Harness
const queues: JobQueue[] = []
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  for (const q of queues) await q.stop(1000)
  await h.close()
})

/** A queue instance as a replica builds one; `handle` records what ran. */
function replica(name: string, handle: (data: { n: number }) => Promise<void>, options: { workers?: boolean; retry?: object } = {}) {
  const q = new JobQueue(h.deps.database, { workers: options.workers ?? true, logger: h.deps.logger, pollingIntervalSeconds: 0.5 })
  q.define<{ n: number }>({ name, handle, options: options.retry })
  queues.push(q)
  return q
}

const states = (name: string) =>
  queryRows<{ state: string; retry_count: number; data: { n: number } }>(
    h.db,
    sql`select state, retry_count, data from pgboss.job where name = ${name} order by created_on`,
  )

test('a job enqueued in a transaction that rolls back never exists; a committed one runs once', async () => {
  const seen: number[] = []
  const q = replica('tx-jobs', async (d) => void seen.push(d.n))
  await q.start()
  await rejection(
    h.db.transaction(async (tx) => {
      await q.send(tx, 'tx-jobs', { n: 1 })
      throw new Error('the change failed')
    }),
    'the change failed',
  )
  await h.db.transaction(async (tx) => {
    await q.send(tx, 'tx-jobs', { n: 2 })
  })
  await until(() => seen.length > 0)
  await Bun.sleep(1200)
  expect(seen).toEqual([2])
  expect((await states('tx-jobs')).map((j) => [j.data.n, j.state])).toEqual([[2, 'completed']])
})

test('two replicas on one database: every job runs exactly once', async () => {
  const runs: number[] = []
  const one = replica('shared', async (d) => void runs.push(d.n))
  const two = replica('shared', async (d) => void runs.push(d.n))
  await Promise.all([one.start(), two.start()])
  await h.db.transaction(async (tx) => {
    for (let n = 0; n < 30; n++) await one.send(tx, 'shared', { n })
  })
  await until(() => runs.length >= 30)
  await Bun.sleep(1200)
  expect(runs.sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, n) => n))
}, 20_000)

test('a job enqueued where no worker runs (JOBS=off, or a restart) runs once a worker starts', async () => {
  const seen: number[] = []
  const offline = replica('later', async (d) => void seen.push(d.n), { workers: false })
  await offline.start()
  await h.db.transaction(async (tx) => {
    await offline.send(tx, 'later', { n: 7 })
  })
  await Bun.sleep(1500)
  expect(seen).toEqual([])
  await offline.stop(1000)
  const restarted = replica('later', async (d) => void seen.push(d.n))
  await restarted.start()
  await until(() => seen.length > 0)
  expect(seen).toEqual([7])
})

test('a failing job is retried, then marked failed', async () => {
  let attempts = 0
  const q = replica(
    'flaky',
    async () => {
      attempts++
      throw new Error('provider down')
    },
    { retry: { retryLimit: 2, retryDelay: 1, retryBackoff: false } },
  )
  await q.start()
  await h.db.transaction(async (tx) => {
    await q.send(tx, 'flaky', { n: 1 })
  })
  await until(async () => (await states('flaky'))[0]?.state === 'failed', 20_000)
  expect(attempts).toBe(3)
  expect((await states('flaky'))[0]).toMatchObject({ state: 'failed', retry_count: 2 })
}, 30_000)

test('a job that runs past its expiry is failed at a supervision pass, and its dead letter runs (a backup past its hour)', async () => {
  const dead: number[] = []
  let release = () => {}
  const hung = new Promise<void>((resolve) => {
    release = resolve
  })
  const q = new JobQueue(h.deps.database, { workers: true, logger: h.deps.logger, pollingIntervalSeconds: 0.5 })
  queues.push(q)
  // The dead letter's queue first: a queue names one that exists.
  q.define<{ n: number }>({ name: 'expiring-dead', handle: async (d) => void dead.push(d.n) })
  q.define<{ n: number }>({ name: 'expiring', handle: () => hung, options: { retryLimit: 0, expireInSeconds: 1, deadLetter: 'expiring-dead' } })
  await q.start()
  await h.db.transaction((tx) => q.send(tx, 'expiring', { n: 9 }))
  await until(() => dead.length > 0, 40_000)
  release()
  expect(dead).toEqual([9])
  expect((await states('expiring')).map((j) => j.state)).toEqual(['failed'])
}, 60_000)

test('jobs fetched together are settled one by one: a failure retries only itself, also when the batch runs in parallel', async () => {
  for (const parallel of [false, true]) {
    const name = `batch-${parallel}`
    const runs = new Map<number, number>()
    const q = new JobQueue(h.deps.database, { workers: true, logger: h.deps.logger, pollingIntervalSeconds: 0.5 })
    queues.push(q)
    q.define<{ n: number }>({
      name,
      parallel,
      options: { retryLimit: 1, retryDelay: 1, retryBackoff: false },
      handle: async (d) => {
        runs.set(d.n, (runs.get(d.n) ?? 0) + 1)
        if (d.n === 3) throw new Error('this one fails')
      },
    })
    // Queued before the workers start, so the first fetch takes all five at once.
    await q.start()
    await q.stop(1000)
    await h.db.transaction((tx) =>
      q.sendMany(
        tx,
        name,
        [1, 2, 3, 4, 5].map((n) => ({ n })),
      ),
    )
    await q.start()
    await until(async () => (await states(name)).every((j) => j.state === 'completed' || j.state === 'failed'), 20_000)
    expect(Object.fromEntries(runs)).toEqual({ 1: 1, 2: 1, 3: 2, 4: 1, 5: 1 })
    expect((await states(name)).map((j) => j.state).sort()).toEqual(['completed', 'completed', 'completed', 'completed', 'failed'])
  }
}, 60_000)

test('sending a job kind nobody defined is a programming error, caught at once', async () => {
  const q = replica('known', async () => {})
  await rejection(
    h.db.transaction(async (tx) => q.send(tx, 'unknown', { n: 1 })),
    'no job kind unknown',
  )
})

test('a restart writes a queue only when its settings changed: an upgraded definition takes effect, an unchanged one is left as it is', async () => {
  const settings = () =>
    queryRows<{ retry_limit: number; updated_on: string }>(h.db, sql`select retry_limit, updated_on::text from pgboss.queue where name = 'settled'`)
  const first = replica('settled', async () => {}, { workers: false, retry: { retryLimit: 2 } })
  await first.start()
  const [created] = await settings()
  expect(created!.retry_limit).toBe(2)
  await first.stop(1000)
  const same = replica('settled', async () => {}, { workers: false, retry: { retryLimit: 2 } })
  await same.start()
  expect(await settings()).toEqual([created!]) // not written again
  await same.stop(1000)
  const upgraded = replica('settled', async () => {}, { workers: false, retry: { retryLimit: 4 } })
  await upgraded.start()
  expect((await settings())[0]!.retry_limit).toBe(4)
})

test("pg-boss's own cron stays off (src/jobs schedules recurring work): a started queue makes no queue of its own for it", async () => {
  // The harness's app queue has started, with workers: pg-boss's cron would have made `__pgboss__send-it` and polled it.
  const own = await queryRows<{ name: string }>(h.db, sql`select name from pgboss.queue where name like '\_\_pgboss\_\_%'`)
  expect(own).toEqual([])
  expect((await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from pgboss.queue`))[0]!.n).toBeGreaterThan(5)
})

test("a started queue keeps no row in pg-boss's instance registry: registering one would walk the heap at start and every 30 s", async () => {
  // pg-boss's Nurse reads v8.getHeapStatistics() for each registry heartbeat; Bun answers it by
  // walking the heap, a stall of the event loop of several milliseconds (bench/README.md, P7).
  const walks = spyOn(v8, 'getHeapStatistics')
  try {
    await replica('no-registry', async () => {}).start()
    expect(walks).not.toHaveBeenCalled()
  } finally {
    walks.mockRestore()
  }
  expect(await queryRows(h.db, sql`select id from pgboss.instance`)).toEqual([])
})
