import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { renewEpoch } from '../../src/modules/realtime/hub'
import { purgeRealtime } from '../../src/modules/realtime/jobs'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { realtimeStream } from '../support/sse'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

// Cursors name this instance's epoch and a place in commit order; the `ready` cursor splits the
// changes a client loads from those its stream delivers (issue 43, points 1 and 2).

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const CURSOR = /^([0-9a-f]{8})\.(\d+)\.(\d+)$/
const stream = (token: string, topics: string, since?: string) => realtimeStream(h.app, token, topics, { since })
const addNote = async (token: string, title: string) => (await h.call('POST', '/userdata/notes', { token, body: { title } })).body as { id: string }

describe('cursors', () => {
  test('a cursor from the future, of another epoch or of the older form resets with unknown_cursor instead of a silent stream', async () => {
    const ada = await customerOf(h, org, owner)
    const first = await stream(ada.token, 'userdata/notes')
    const ready = await first.sse.next()
    await first.sse.close()
    const [, epoch, pos, seq] = CURSOR.exec(ready.id!)!
    const otherEpoch = epoch === 'aaaaaaaa' ? 'bbbbbbbb' : 'aaaaaaaa'
    for (const since of [`${epoch}.${Number(pos) + 1000}.0`, `${epoch}.99999999.1`, `${otherEpoch}.${pos}.${seq}`, '99999999-1']) {
      const s = await stream(ada.token, 'userdata/notes', since)
      expect(s.res.status).toBe(200)
      expect((await s.sse.next()).event).toBe('ready')
      expect((await s.sse.next()).data).toEqual({ reason: 'unknown_cursor' })
      // The stream goes on from now: the next change arrives.
      const note = await addNote(ada.token, `after ${since}`)
      expect((await s.sse.next()).data).toMatchObject({ op: 'insert', id: note.id })
      await s.sse.close()
    }
  })

  test('a restore gives the instance a new epoch: cursors of the history it no longer follows reset', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await stream(ada.token, 'userdata/notes')
    const ready = (await s.sse.next()).id!
    await s.sse.close()
    const again = await stream(ada.token, 'userdata/notes', ready)
    expect((await again.sse.next()).event).toBe('ready')
    expect(await again.sse.none(300)).toBe(true)
    await again.sse.close()

    await renewEpoch(h.db)
    const restored = await createHarnessOver()
    try {
      const old = await realtimeStream(restored.app, ada.token, 'userdata/notes', { since: ready })
      const fresh = await old.sse.next()
      expect(CURSOR.exec(fresh.id!)![1]).not.toBe(CURSOR.exec(ready)![1])
      expect((await old.sse.next()).data).toEqual({ reason: 'unknown_cursor' })
      await old.sse.close()
    } finally {
      await restored.close()
    }
  })

  test('a client at the newest cursor is not reset when the retention job has emptied the log', async () => {
    const ada = await customerOf(h, org, owner)
    await addNote(ada.token, 'soon purged')
    h.advanceClock(25 * 3600 * 1000)
    try {
      expect((await runJob(h.deps, purgeRealtime))!.changes).toBeGreaterThan(0)
    } finally {
      h.advanceClock(-25 * 3600 * 1000)
    }
    const [{ n }] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from realtime.changes`)
    expect(n).toBe(0)
    const s = await stream(ada.token, 'userdata/notes')
    const ready = (await s.sse.next()).id!
    expect(ready).not.toMatch(/\.0\.0$/)
    await s.sse.close()
    const resumed = await stream(ada.token, 'userdata/notes', ready)
    expect((await resumed.sse.next()).event).toBe('ready')
    const note = await addNote(ada.token, 'after the purge')
    expect((await resumed.sse.next()).data).toMatchObject({ op: 'insert', id: note.id })
    await resumed.sse.close()
  })
})

describe('the ready contract', () => {
  test('with writes racing: changes acknowledged before the stream was asked for are never on it, later ones always, none twice, none missing', async () => {
    for (let round = 0; round < 8; round++) {
      const ada = await customerOf(h, org, owner)
      const notes: { id: string; sentAt: number; ackedAt: number }[] = []
      let writing = true
      // In-process on PGlite a request can settle in microtasks alone: each writer yields a turn so timers run.
      const writers = Array.from({ length: 3 }, async () => {
        while (writing) {
          const sentAt = performance.now()
          const { id } = await addNote(ada.token, 'racing')
          notes.push({ id, sentAt, ackedAt: performance.now() })
          await Bun.sleep(0)
        }
      })
      try {
        while (notes.length < round) await Bun.sleep(2)
        const asked = performance.now()
        const s = await stream(ada.token, 'userdata/notes')
        expect((await s.sse.next()).event).toBe('ready')
        const readyAt = performance.now()
        const listed = new Set<string>(
          ((await h.call('GET', '/userdata/notes?pageSize=100', { token: ada.token })).body.items as { id: string }[]).map((n) => n.id),
        )
        const target = notes.length + 5
        while (notes.length < target) await Bun.sleep(2)
        writing = false
        await Promise.all(writers)
        const streamed: string[] = []
        while (notes.some((n) => !listed.has(n.id) && !streamed.includes(n.id))) streamed.push((await s.sse.next(5000)).data.id)
        expect(await s.sse.none(200)).toBe(true)
        await s.sse.close()
        const before = notes.filter((n) => n.ackedAt < asked).map((n) => n.id)
        const after = notes.filter((n) => n.sentAt > readyAt).map((n) => n.id)
        expect(streamed.filter((id) => before.includes(id))).toEqual([])
        expect(after.filter((id) => !streamed.includes(id))).toEqual([])
        expect(before.filter((id) => !listed.has(id))).toEqual([])
        expect(new Set(streamed).size).toBe(streamed.length)
      } finally {
        writing = false
        await Promise.all(writers)
      }
    }
  })
})

/** A second app over the same database, as a restarted or restored server would be. */
async function createHarnessOver() {
  const replica = await h.replica()
  return { app: replica.app, close: () => replica.close() }
}
