import { afterAll, expect, test } from 'bun:test'
import { openPostgres } from '../../src/platform/db'
import { freshDatabase, testDatabaseUrl, type TestDatabase } from '../support/database'
import { rejection } from '../support/wait'

// Database.unsafe runs SQL text that libraries bring (pg-boss installs its schema in BEGIN … COMMIT).
// A statement failing inside such a text must not hand the pooled connection back mid-transaction:
// two replicas booting at once made one fail that way, and the next query on that connection
// (25P02, "current transaction is aborted") crashed the server.

let database: TestDatabase | undefined
afterAll(async () => {
  await database?.drop()
})

test.skipIf(!testDatabaseUrl)('a multi-statement text that fails inside its transaction leaves the connection usable', async () => {
  database = await freshDatabase()
  const single = await openPostgres(database.url!, { max: 1 })
  try {
    await rejection(single.unsafe('begin; select 1; select 1 / 0; commit;'), 'division by zero')
    expect((await single.unsafe('select $1::int as answer', [42])).rows).toEqual([{ answer: 42 }])
    expect((await single.unsafe('select 7 as n;')).rows).toEqual([{ n: 7 }])
  } finally {
    await single.close()
  }
})
