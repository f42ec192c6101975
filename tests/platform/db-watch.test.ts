import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { ReentrancyError } from '../../src/platform/db/watch'
import { createHarness } from '../support/harness'
import { until, rejection } from '../support/wait'

// The database watch (src/platform/db/watch.ts), on whichever database the suite runs on. On
// PGlite's one connection, a statement sent to the pool by code that holds a transaction waits for
// its own caller forever (the embedded stalls of issue 39); on PostgreSQL it is a pool deadlock
// waiting for load. The suite runs with the guard on, so such code fails its tests at once.

let h: Awaited<ReturnType<typeof createHarness>>
beforeAll(async () => {
  h = await createHarness()
})
afterAll(async () => {
  await h.close()
})

const database = () => h.deps.database

async function holdTransaction(body: () => Promise<unknown>) {
  return database().db.transaction(async (tx) => {
    await tx.execute(sql`select 1`)
    return body()
  })
}

test('a pool statement inside a transaction throws with both stacks instead of waiting', async () => {
  // Drizzle wraps a driver's error: the guard's is its cause.
  const error = (await rejection(holdTransaction(() => database().db.execute(sql`select 42 as answer`)))).cause as Error
  expect(error).toBeInstanceOf(ReentrancyError)
  expect(error.message).toContain('Statement: select 42 as answer')
  expect(error.message).toContain('-- sent from:')
  expect(error.message).toContain('-- transaction opened at:')
  // The transaction's origin names the code holding the connection (this file's holdTransaction).
  expect(error.message.split('-- transaction opened at:')[1]).toContain('db-watch.test.ts')
  // Raw SQL is sent from the caller's own frames.
  const raw = await rejection(holdTransaction(() => database().unsafe('select 1 as n')))
  expect(raw.message.split('-- transaction opened at:')[0]).toContain('db-watch.test.ts')
})

test('the guard also catches a second transaction, raw SQL and a reservation on the pool', async () => {
  await rejection(
    holdTransaction(() => database().db.transaction(async (tx) => tx.execute(sql`select 1`))),
    'Statement: BEGIN',
  )
  await rejection(
    holdTransaction(() => database().unsafe('select $1::int as n', [1])),
    'Statement: select $1::int as n',
  )
  if (database().kind === 'postgres')
    await rejection(
      holdTransaction(() => database().dedicated()),
      '(reserve a connection)',
    )
})

test("the transaction's own statements, savepoints and work after it ends pass", async () => {
  let later: Promise<unknown> | undefined
  const rows = await database().db.transaction(async (tx) => {
    await tx.transaction(async (inner) => inner.execute(sql`select 1`))
    // Started inside, run after the commit: the connection is no longer held then.
    later = new Promise((resolve) => setTimeout(resolve, 20)).then(() => database().db.execute(sql`select 2 as n`))
    return tx.execute(sql`select 3 as n`)
  })
  expect(rows).toBeTruthy()
  expect(await later).toBeTruthy()
})

test('a statement waiting past DB_STALL_SECONDS is logged once with its holder, and /health answers 503 database_stalled', async () => {
  const lines: string[] = []
  database().watch.configure({ stallSeconds: 0.3, log: (msg, fields) => lines.push(JSON.stringify({ msg, ...fields })) })
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  // A transaction holds a lock on purpose; a statement that needs it waits (on PGlite for the one
  // connection, on PostgreSQL for the lock). It is sent from a timer, outside the holder's context.
  const held = database().db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`)
    await released
  })
  let waiting: Promise<unknown> | undefined
  setTimeout(() => (waiting = Promise.resolve(database().db.execute(sql`select pg_advisory_xact_lock(4242) as waiting_statement`))), 50)
  try {
    await until(() => lines.some((l) => l.includes('"database stalled"')), 10_000)
    const stalled = JSON.parse(lines.find((l) => l.includes('"database stalled"'))!)
    expect(stalled.statements).toContain('select pg_advisory_xact_lock(4242) as waiting_statement')
    expect(stalled.holder).toContain('db-watch.test.ts')
    expect(stalled.stack).toContain('db-watch.test.ts')
    expect(stalled.waitingMs).toBeGreaterThanOrEqual(300)

    const health = await h.call('GET', '/health')
    expect(health.status).toBe(503)
    expect(health.body).toMatchObject({ status: 'degraded', database: 'stalled', error: { code: 'database_stalled' } })
    await Bun.sleep(1200)
    expect(lines.filter((l) => l.includes('"database stalled"'))).toHaveLength(1)
  } finally {
    release()
    await held
    await until(() => waiting !== undefined)
    await waiting
  }
  await until(() => lines.some((l) => l.includes('"database stall ended"')), 5000)
  expect((await h.call('GET', '/health')).body).toEqual({ status: 'ok', database: 'ok' })
})
