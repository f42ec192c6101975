import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { keepStatementsPrepared, MAX_STATEMENTS } from '../../src/platform/db/pglite-statements'
import { pgliteModule } from '../../src/platform/db/wasm'
import { conversations } from '../../src/modules/chat/schema'
import { freshDatabase, testDatabaseUrl, type TestDatabase } from '../support/database'

// The embedded client keeps its queries' statements prepared (src/platform/db/pglite-statements.ts):
// one call into the database per statement run instead of six, and no parse or plan. These tests
// hold it to PGlite's own answers, through rollbacks, errors and schema changes.

let client: PGlite
let kept: { readonly size: number }
const prepared = async () => (await client.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`)).rows[0]!.n

beforeAll(async () => {
  client = await PGlite.create({ pgliteWasmModule: await pgliteModule() })
  kept = keepStatementsPrepared(client)
  await client.exec(`create table notes (id serial primary key, owner text not null unique, body jsonb, tags text[], at timestamptz not null default now())`)
})
afterAll(() => client.close())

describe('kept statements', () => {
  test('answer as PGlite does (rows, types, nulls, row mode, affected rows), and run again without being prepared again', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z')
    const inserted = await client.query(`insert into notes (owner, body, tags, at) values ($1, $2, $3, $4) returning *`, [
      'ann',
      { a: [1, 'x'] },
      ['p', 'q'],
      at,
    ])
    expect(inserted.rows).toEqual([{ id: 1, owner: 'ann', body: { a: [1, 'x'] }, tags: ['p', 'q'], at }])
    expect(inserted.affectedRows).toBe(1)
    await client.query(`insert into notes (owner, body, tags, at) values ($1, $2, $3, $4) returning *`, ['bob', null, null, at])
    const before = kept.size
    const read = () => client.query(`select owner, body, tags from notes where owner = $1 or $2::text is null order by id`, ['bob', null], { rowMode: 'array' })
    const first = await read()
    const second = await read()
    expect(second.rows).toEqual([
      ['ann', { a: [1, 'x'] }, ['p', 'q']],
      ['bob', null, null],
    ])
    expect(second.fields.map((f) => f.name)).toEqual(['owner', 'body', 'tags'])
    expect(first).toEqual(second)
    expect(kept.size).toBe(before + 1)
    const updated = await client.query(`update notes set body = $1 where owner = $2`, [{ b: true }, 'nobody'])
    expect(updated).toMatchObject({ rows: [], affectedRows: 0 })
  })

  test('an error comes with its code and leaves the connection usable; in a transaction it rolls the transaction back', async () => {
    const insert = (owner: string) => client.query(`insert into notes (owner) values ($1)`, [owner])
    await insert('carl')
    const again = await insert('carl').catch((err: { code?: string }) => err)
    expect(again).toMatchObject({ code: '23505' })
    expect((await client.query(`select count(*)::int as n from notes where owner = $1`, ['carl'])).rows).toEqual([{ n: 1 }])
    const failed = await client
      .transaction(async (tx) => {
        await tx.query(`insert into notes (owner) values ($1)`, ['dora'])
        await tx.query(`insert into notes (owner) values ($1)`, ['carl'])
      })
      .catch((err: { code?: string }) => err)
    expect(failed).toMatchObject({ code: '23505' })
    expect((await client.query(`select count(*)::int as n from notes where owner = $1`, ['dora'])).rows).toEqual([{ n: 0 }])
    expect(await client.query(`select $1::int + 1 as n`, ['nope']).catch((err: { code?: string }) => err.code)).toBe('22P02')
  })

  test('a statement first prepared in a transaction that rolled back is kept and still runs', async () => {
    const text = `select owner from notes where id = $1 and 'rolled back' <> ''`
    await client
      .transaction(async (tx) => {
        await tx.query(text, [1])
        await tx.rollback()
      })
      .catch(() => {})
    expect((await client.query(text, [1])).rows).toEqual([{ owner: 'ann' }])
  })

  test('a schema change forgets the kept statements: a read of * sees the new column, in a transaction too', async () => {
    const read = (db: Pick<PGlite, 'query'>) => db.query<Record<string, unknown>>(`select * from notes where owner = $1`, ['ann'])
    expect(Object.keys((await read(client)).rows[0]!)).not.toContain('colour')
    await client.query(`alter table notes add column colour text`)
    expect(kept.size).toBe(0)
    await client.transaction(async (tx) => expect(Object.keys((await read(tx)).rows[0]!)).toContain('colour'))
  })

  test('a change it could not see (in a multi-statement exec) is met once outside a transaction and runs again; inside one it fails once, then runs', async () => {
    const read = (db: Pick<PGlite, 'query'>) => db.query<Record<string, unknown>>(`select * from notes where owner = $1 and true`, ['ann'])
    await read(client)
    await client.exec(`select 1; alter table notes add column size int`)
    expect(Object.keys((await read(client)).rows[0]!)).toContain('size')
    await client.exec(`select 1; alter table notes add column shape text`)
    const inside = await client.transaction((tx) => read(tx)).catch((err: Error) => err.message)
    expect(inside).toBe('cached plan must not change result type')
    await client.transaction(async (tx) => expect(Object.keys((await read(tx)).rows[0]!)).toContain('shape'))
  })

  test(`at most ${MAX_STATEMENTS} are kept: the least recently used is closed in the database too`, async () => {
    const hot = `select id from notes where owner = $1 and 'hot' <> ''`
    await client.query(hot, ['ann'])
    for (let i = 0; i < MAX_STATEMENTS + 20; i++) {
      await client.query(`select $1::int + ${i} as n`, [1])
      if (i % 50 === 0) await client.query(hot, ['ann'])
    }
    expect(kept.size).toBe(MAX_STATEMENTS)
    // Closed with the next statement run: this count runs as one of them.
    expect(await prepared()).toBeLessThanOrEqual(MAX_STATEMENTS + 1)
    const names = (await client.query<{ statement: string }>(`select statement from pg_prepared_statements`)).rows.map((r) => r.statement)
    expect(names).toContain(hot)
    expect(names).not.toContain(`select $1::int + 0 as n`)
  })
})

describe.skipIf(Boolean(testDatabaseUrl))('the embedded database', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(() => database.drop())

  test('runs Drizzle’s queries as kept statements, in transactions too', async () => {
    const { db } = database.database
    const mine = () => db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, crypto.randomUUID()))
    const keptNow = async () =>
      (await queryRows<{ statement: string }>(db, sql`select statement from pg_prepared_statements where name like 'ecobase_%'`)).map((r) => r.statement)
    expect(await mine()).toEqual([])
    await db.transaction(async (tx) => {
      await tx.select({ id: conversations.id }).from(conversations).where(eq(conversations.customerId, crypto.randomUUID()))
    })
    const statements = await keptNow()
    expect(statements).toContain(mine().toSQL().sql)
    expect(statements.some((s) => s.includes('"customer_id" = $1'))).toBe(true)
  })

  test('plans every run for its values: no plan made over a nearly empty table outlives the table’s growth', async () => {
    const { db } = database.database
    const mine = () => db.select({ id: conversations.id }).from(conversations).where(eq(conversations.ownerId, crypto.randomUUID()))
    for (let i = 0; i < 10; i++) await mine()
    const [plans] = await queryRows<{ generic_plans: number; custom_plans: number }>(
      db,
      sql`select generic_plans, custom_plans from pg_prepared_statements where statement = ${mine().toSQL().sql}`,
    )
    expect(plans).toEqual({ generic_plans: 0, custom_plans: 10 })
  })
})
