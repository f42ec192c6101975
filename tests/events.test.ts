import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { t } from 'elysia'
import { sql } from 'drizzle-orm'
import { AUDIT_ACTIONS, EVENTS, MODULES } from '../src/modules'
import { afterCommit, afterRollback } from '../src/platform/db/commit'
import { EventBus, defineEvent, emitterOf } from '../src/platform/events'
import { renderEvents } from '../scripts/events-doc'
import { createHarness, type Harness } from './support/harness'
import { rejection } from './support/wait'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const pinged = defineEvent('test.thing.pinged', { description: 'A test event.', payload: t.Object({ n: t.Integer() }) })

describe('the event bus', () => {
  test('handlers write in the transaction of the change: what they write commits or rolls back with it', async () => {
    const bus = new EventBus()
    bus.declare([pinged])
    bus.on(pinged, async (tx, { payload }) => {
      await tx.execute(sql`insert into bus_probe values (${payload.n})`)
    })
    await h.db.execute(sql`create table if not exists bus_probe (n int)`)

    await h.db.transaction((tx) => bus.emit(tx, pinged, 'eco', { n: 1 }))

    await rejection(
      h.db.transaction(async (tx) => {
        await bus.emit(tx, pinged, 'eco', { n: 2 })
        throw new Error('the change failed')
      }),
      'the change failed',
    )
    // A savepoint that rolls back drops what its handlers wrote; the outer transaction keeps its own.
    await h.db.transaction(async (tx) => {
      await rejection(
        tx.transaction(async (inner) => {
          await bus.emit(inner, pinged, 'eco', { n: 3 })
          throw new Error('the savepoint failed')
        }),
        'the savepoint failed',
      )
      await tx.transaction((inner) => bus.emit(inner, pinged, 'eco', { n: 4 }))
    })
    const rows = (await h.db.execute(sql`select n from bus_probe order by n`)) as unknown
    const ns = (Array.isArray(rows) ? rows : (rows as { rows: { n: number }[] }).rows).map((r: { n: number }) => r.n)
    expect(ns).toEqual([1, 4])
  })

  test('after-rollback hooks run when their transaction or savepoint rolls back (or one around it), never after a commit', async () => {
    const seen: string[] = []
    const hooks = (db: typeof h.db, name: string) => {
      afterCommit(db, () => seen.push(`${name} committed`))
      afterRollback(db, () => seen.push(`${name} undone`))
    }
    await h.db.transaction(async (tx) => hooks(tx, 'a'))
    expect(seen).toEqual(['a committed'])
    seen.length = 0
    await rejection(
      h.db.transaction(async (tx) => {
        hooks(tx, 'b')
        throw new Error('failed')
      }),
      'failed',
    )
    expect(seen).toEqual(['b undone'])
    seen.length = 0
    // A savepoint that rolls back undoes its own at once; one that released is undone with its transaction.
    await rejection(
      h.db.transaction(async (tx) => {
        await rejection(
          tx.transaction(async (inner) => {
            hooks(inner, 'c')
            throw new Error('savepoint failed')
          }),
          'savepoint failed',
        )
        expect(seen).toEqual(['c undone'])
        await tx.transaction(async (inner) => hooks(inner, 'd'))
        throw new Error('outer failed')
      }),
      'outer failed',
    )
    expect(seen).toEqual(['c undone', 'd undone'])
  })

  test('a failing handler rolls the change back', async () => {
    const bus = new EventBus()
    bus.declare([pinged])
    bus.on(pinged, async () => {
      throw new Error('refused')
    })
    await rejection(
      h.db.transaction((tx) => bus.emit(tx, pinged, 'eco', { n: 2 })),
      'refused',
    )
  })

  test('an undeclared event, or one declared twice, is a programming error', () => {
    const bus = new EventBus()
    expect(() => bus.on(pinged, async () => {})).toThrow('test.thing.pinged is not declared')
    bus.declare([pinged])
    expect(() => bus.declare([pinged])).toThrow('declared twice')
  })
})

describe('the modules', () => {
  test('every event is named <area>.<noun>.<verb> after the module that declares it', () => {
    for (const module of MODULES) for (const event of module.events ?? []) expect(emitterOf(event), event.name).toBe(module.name)
    for (const event of EVENTS) expect(event.name).toMatch(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/)
  })

  test('every audit action is named <area>.<noun>.<verb> after the module that declares it, once', () => {
    for (const module of MODULES) for (const action of module.audit ?? []) expect(action.name, action.name).toStartWith(`${module.name}.`)
    for (const action of AUDIT_ACTIONS) expect(action.name).toMatch(/^[a-z_]+\.[a-z_]+\.[a-z_]+$/)
    expect(new Set(AUDIT_ACTIONS.map((a) => a.name)).size).toBe(AUDIT_ACTIONS.length)
  })

  test('names and tags are unique, and every module folder is in the list', () => {
    const names: string[] = MODULES.map((m) => m.name)
    expect(new Set(names).size).toBe(names.length)
    const tags = MODULES.flatMap((m) => Object.keys(m.tags ?? {}))
    expect(new Set(tags).size).toBe(tags.length)
    const folders = [...new Bun.Glob('*/index.ts').scanSync(join(import.meta.dir, '..', 'src', 'modules'))].map((f) => f.split('/')[0]).sort()
    expect([...names].sort()).toEqual(folders)
  })

  test('docs/events.md is generated from the modules (run `npm run openapi`)', () => {
    expect(readFileSync(join(import.meta.dir, '..', 'docs', 'events.md'), 'utf8')).toBe(renderEvents(MODULES))
  })
})
