import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { testDatabaseUrl } from '../support/database'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

// Statements are kept prepared (postgres.js on PostgreSQL, pglite-statements.ts on PGlite), and
// after five runs PostgreSQL may plan one once for every parameter. Such a generic plan can use a
// partial index only when the statement names the predicate's value itself (platform/db
// `constant`): with `status = $3` the presign's duplicate check read every file of the customer.
// The statement below, as the route kept it, is planned generically (EXPLAIN (GENERIC_PLAN) needs
// PostgreSQL 16, so this runs on the embedded database), sequential scans off so that only which
// index serves it counts.

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

/** The kept statement whose text includes `fragment`, planned for any parameters. */
async function genericPlan(fragment: string): Promise<string> {
  const [kept] = await queryRows<{ statement: string }>(
    h.db,
    sql`select statement from pg_prepared_statements where name like 'ecobase_%' and position(${fragment} in statement) > 0`,
  )
  expect(kept).toBeDefined()
  // As text of its own (the simple protocol): through the extended one, its $1… would ask for parameters.
  const { rows } = await h.deps.database.unsafe(`set enable_seqscan = off; explain (generic_plan) ${kept!.statement}; reset enable_seqscan`)
  return (rows as { 'QUERY PLAN': string }[]).map((line) => line['QUERY PLAN']).join('\n')
}

test.skipIf(Boolean(testDatabaseUrl))(
  'the presign’s duplicate check keeps its partial index in a plan made for any parameters, among 2,000 files',
  async () => {
    const owner = await h.register()
    const eco = await provision(h, owner)
    const customer = await customerOf(h, eco, owner)
    // The customer's earlier files, ready, each a content of its own; then PostgreSQL's statistics of them.
    await h.db.execute(sql`insert into storage.attachments (id, ecosystem_id, customer_id, object_key, storage_kind, filename, content_type, size_bytes, content_hash, status)
    select gen_random_uuid(), ${eco.ecosystem.id}, ${customer.customerId}, 'bench/' || n, 'local', n || '.bin', 'application/octet-stream', 1, md5(n::text) || md5(n::text), 'ready'
    from generate_series(1, 2000) as n`)
    await h.db.execute(sql`analyze storage.attachments`)
    // Six presigns: after five, PostgreSQL weighs the generic plan.
    for (let i = 0; i < 6; i++) {
      const presign = await h.call('POST', '/storage/uploads', {
        token: customer.token,
        body: { filename: `${i}.bin`, contentType: 'application/octet-stream', sizeBytes: 1, contentHash: String(i).repeat(64) },
      })
      expect(presign.status).toBe(201)
    }
    const plan = await genericPlan('"content_hash" = $')
    expect(plan).toContain('attachments_hash_idx')
    expect(plan).not.toContain('status = $')
  },
)
