import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { dataRowsChanged } from '../../src/modules/data/events'
import { testDatabaseUrl } from '../support/database'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { sample, scrapeText } from '../support/metrics'
import { realtimeStream } from '../support/sse'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

// A transaction left open anywhere on the server must not hold everyone's changes back (issue 43,
// point 3): on PostgreSQL the old reader waited for the server's oldest transaction (xmin), so an
// idle-in-transaction session in another database stalled every stream. PGlite has one connection:
// an open transaction there holds everything by design, so these run on PostgreSQL.

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123'
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  if (!testDatabaseUrl) return
  h = await createHarness({ METRICS_TOKEN })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h?.close())

/** A session on `url` that opens a transaction, takes a transaction id (as any write does) and stays idle in it. */
async function idleInTransaction(url: string) {
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  const reserved = await sql.reserve()
  await reserved`begin`
  await reserved`select pg_current_xact_id()`
  return async () => {
    await reserved`rollback`
    reserved.release()
    await sql.end({ timeout: 5 })
  }
}

describe.skipIf(!testDatabaseUrl)('open transactions elsewhere', () => {
  test('an idle transaction in another database and one in this database delay no change', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await realtimeStream(h.app, ada.token, 'userdata/notes')
    await s.sse.next()
    const elsewhere = await idleInTransaction(testDatabaseUrl!)
    const here = await idleInTransaction(h.databaseUrl!)
    try {
      for (const title of ['one', 'two', 'three']) {
        const { body } = await h.call('POST', '/userdata/notes', { token: ada.token, body: { title } })
        expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: body.id })
      }
    } finally {
      await elsewhere()
      await here()
      await s.sse.close()
    }
  })

  test('a long transaction that writes changes delays no one else; its own arrive when it commits, once, after the ones that committed first', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await realtimeStream(h.app, ada.token, 'data/documents')
    await s.sse.next()
    let commit!: () => void
    const released = new Promise<void>((resolve) => (commit = resolve))
    const slow = h.db.transaction(async (tx) => {
      await h.app.bus.emit(tx, dataRowsChanged, org.ecosystem.id, {
        topic: 'data/documents',
        changes: [{ op: 'insert', id: 'slow-row', customerId: ada.customerId, audience: 'own', record: { title: 'slow' } }],
      })
      await released
    })
    const { body: quick } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'quick' } })
    expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: quick.id })
    commit()
    await slow
    expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: 'slow-row' })
    const { body: later } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'later' } })
    expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: later.id })
    expect(await s.sse.none(300)).toBe(true)
    await s.sse.close()
  })

  test('a commit still under way after taking its place holds the later ones back until it lands: both arrive, in commit order, once', async () => {
    // A deferred trigger that runs after the one taking the place (triggers fire by name) makes the
    // commit of a transaction that set ecobase.slow_commit take 400 ms after taking its place.
    const admin = postgres(h.databaseUrl!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`
      create function realtime.zz_slow_commit() returns trigger language plpgsql as $$
      begin
        if current_setting('ecobase.slow_commit', true) = 'on' then perform pg_sleep(0.4); end if;
        return null;
      end $$;
      create constraint trigger zz_slow_commit after insert on realtime.changes
        deferrable initially deferred for each row execute function realtime.zz_slow_commit();`)
    const waits = async (wait: string) => sample(await scrapeText(h, METRICS_TOKEN), `ecobase_realtime_gap_waits_total{wait="${wait}"}`) ?? 0
    const before = { notify: await waits('notify'), lock: await waits('lock') }
    const ada = await customerOf(h, org, owner)
    const s = await realtimeStream(h.app, ada.token, 'data/documents')
    await s.sse.next()
    try {
      const slow = h.db.transaction(async (tx) => {
        await tx.execute(sql`set local ecobase.slow_commit = 'on'`)
        await h.app.bus.emit(tx, dataRowsChanged, org.ecosystem.id, {
          topic: 'data/documents',
          changes: [{ op: 'insert', id: 'slow-commit', customerId: ada.customerId, audience: 'own', record: { title: 'slow' } }],
        })
      })
      await Bun.sleep(100)
      const { body: quick } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'quick' } })
      await slow
      expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: 'slow-commit' })
      expect((await s.sse.next(3000)).data).toMatchObject({ op: 'insert', id: quick.id })
      expect(await s.sse.none(300)).toBe(true)
      // The reader met the gap, waited for the missing place's NOTIFY first, then on the commit lock.
      expect(await waits('notify')).toBeGreaterThan(before.notify)
      expect(await waits('lock')).toBeGreaterThan(before.lock)
    } finally {
      await s.sse.close()
      await admin.unsafe('drop trigger zz_slow_commit on realtime.changes; drop function realtime.zz_slow_commit()')
      await admin.end({ timeout: 5 })
    }
  })
})
