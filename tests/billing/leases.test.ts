import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { UsageBatch } from '../../src/modules/billing/usage-batch'
import { queryRows } from '../../src/platform/db'
import { CHAT_MESSAGES } from '../../src/platform/entitlements'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

// A send under a hard chat.messages limit takes units ahead (a lease) so that most sends count in
// memory; these tests hold it to the limit's promise: never past it, across replicas, through
// rollbacks, crashes and stops, and every unit spent is counted once.

let h: Harness
let owner: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
})
afterAll(() => h.close())

type Gate = Harness['app']['services']['billing']['entitlements']

/** An ecosystem whose default plan allows `limit` chat messages, and one of its customers. */
async function limited(limit: number) {
  const eco = await provision(h, owner)
  await h.call('POST', '/billing/plans', {
    ...eco.as(owner),
    body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature: CHAT_MESSAGES, limit }] },
  })
  const customer = await customerOf(h, eco, owner)
  const who = { ecosystemId: eco.ecosystem.id, customerId: customer.customerId }
  /** A send's reserve through `gate`, in a transaction of its own as the chat send runs it: whether it was allowed, and whether it wrote anything (a transaction that wrote nothing was never given an id). */
  const reserve = (gate: Gate = h.app.services.billing.entitlements, rollBack = false) => {
    let wrote = false
    return h.db
      .transaction(async (tx) => {
        await gate.require({ ...who, feature: CHAT_MESSAGES, amount: 1, reserve: true, tx })
        const [xid] = await queryRows<{ wrote: boolean }>(tx, sql`select pg_current_xact_id_if_assigned() is not null as wrote`)
        wrote = xid!.wrote
        if (rollBack) throw new Error('the send failed after its reserve')
      })
      .then(
        () => ({ allowed: true, wrote }),
        (err: { code?: string; message: string }) => {
          if (rollBack && err.message === 'the send failed after its reserve') return { allowed: false, wrote }
          if (err.code !== 'entitlement_exceeded') throw err
          return { allowed: false, wrote }
        },
      )
  }
  /** As reserve: whether the send was allowed. */
  const send = (gate: Gate = h.app.services.billing.entitlements, rollBack = false) => reserve(gate, rollBack).then((r) => r.allowed)
  const rows = async () => {
    const [counter] = await queryRows<{ used: string | number }>(
      h.db,
      sql`select used from billing.usage_counters where customer_id = ${who.customerId} and feature = ${CHAT_MESSAGES}`,
    )
    const leases = await queryRows<{ units: string | number }>(
      h.db,
      sql`select units from billing.usage_leases where customer_id = ${who.customerId} and expires_at > clock_timestamp()`,
    )
    return { used: Number(counter?.used ?? 0), leased: leases.map((l) => Number(l.units)) }
  }
  const shown = async () =>
    (await h.call('GET', '/billing/me', { token: customer.token })).body.entitlements.find((e: { feature: string }) => e.feature === CHAT_MESSAGES)
  /** Sends one by one until one is refused; how many were allowed. */
  const drain = async (gate?: Gate) => {
    let allowed = 0
    while (await send(gate)) allowed++
    return allowed
  }
  /** Changes the default plan's chat.messages limit (every replica's cached plan is dropped at commit). */
  const setLimit = async (next: number) =>
    expect((await h.call('PATCH', '/billing/plans/std', { ...eco.as(owner), body: { entitlements: [{ feature: CHAT_MESSAGES, limit: next }] } })).status).toBe(
      200,
    )
  return { who, send, reserve, rows, shown, drain, setLimit }
}

describe('hard limits taken ahead (leases)', () => {
  test('far from the limit a send takes up to a tenth of what is left ahead; the next sends write nothing, show at once, and are written within a flush', async () => {
    const c = await limited(1000)
    expect(await c.reserve()).toEqual({ allowed: true, wrote: true })
    expect(await c.rows()).toEqual({ used: 1, leased: [50] })
    // Not a statement is written for the next ten; the customer's account counts them anyway.
    for (let i = 0; i < 10; i++) expect(await c.reserve()).toEqual({ allowed: true, wrote: false })
    expect(await c.shown()).toMatchObject({ limit: 1000, used: 11, remaining: 989 })
    // The replica's timer may have written some of them meanwhile: each unit counts once, as used or as the lease's.
    const meanwhile = await c.rows()
    expect(meanwhile.used + meanwhile.leased[0]!).toBe(51)
    await h.app.services.billing.entitlements.flush()
    expect(await c.rows()).toEqual({ used: 11, leased: [40] })
    expect(await c.shown()).toMatchObject({ used: 11, remaining: 989 })
  })

  test('a flush asked for while another writes waits for it and writes what was counted since (as the stop does)', async () => {
    const c = await limited(1000)
    const gate = h.app.services.billing.entitlements
    expect(await c.send()).toBe(true)
    const hold = () => gate.hold({ ...c.who, feature: CHAT_MESSAGES, amount: 1 })
    const [first, second] = [await hold(), await hold()]
    first!.commit()
    const writing = gate.flush()
    second!.commit()
    await gate.flush()
    expect(await c.rows()).toEqual({ used: 3, leased: [48] })
    await writing
  })

  test('use being written counts for a reading until its write has committed, never missing from both', async () => {
    const { who } = await limited(1000)
    const batch = new UsageBatch(h.deps)
    const counter = { ...who, feature: CHAT_MESSAGES, period: 'batch-test' }
    const written = async () =>
      (
        await queryRows<{ used: string | number }>(
          h.db,
          sql`select used from billing.usage_counters where customer_id = ${who.customerId} and period = ${counter.period}`,
        )
      ).map((r) => Number(r.used))
    batch.add(counter, 3)
    const writing = batch.flush()
    // Taken by the write, not yet committed: still pending (it was neither here nor in the database).
    expect(batch.pending(who.customerId, CHAT_MESSAGES, counter.period)).toBe(3)
    batch.add(counter, 2)
    expect(batch.pending(who.customerId, CHAT_MESSAGES, counter.period)).toBe(5)
    await writing
    expect(await written()).toEqual([3])
    expect(batch.pending(who.customerId, CHAT_MESSAGES, counter.period)).toBe(2)
    await batch.flush()
    expect(await written()).toEqual([5])
    expect(batch.pending(who.customerId, CHAT_MESSAGES, counter.period)).toBe(0)
  })

  test('near the limit every send is counted exactly, and the limit is reached, not passed', async () => {
    const c = await limited(25)
    expect(await c.drain()).toBe(25)
    await h.app.services.billing.entitlements.flush()
    expect((await c.rows()).used).toBe(25)
    expect(await c.shown()).toMatchObject({ limit: 25, used: 25, remaining: 0 })
  })

  test('two replicas sending at once never pass the limit together; once their leases are spent or gone the limit is reached exactly', async () => {
    const c = await limited(300)
    const replica = await h.replica()
    try {
      const gates = [h.app.services.billing.entitlements, replica.app.services.billing.entitlements]
      const burst = await Promise.all(Array.from({ length: 400 }, (_, i) => c.send(gates[i % 2])))
      const allowed = burst.filter(Boolean).length
      expect(allowed).toBeLessThanOrEqual(300)
      expect(allowed).toBeGreaterThan(250)
      // What a lease still holds is the other replica's until it is spent or the replica stops.
      await replica.close()
      const more = await c.drain()
      expect(allowed + more).toBe(300)
      await gates[0]!.flush()
      expect((await c.rows()).used).toBe(300)
    } finally {
      await replica.close().catch(() => {})
    }
  })

  test('a send that rolls back gives its unit back; a crashed replica’s lease holds its units only until it expires', async () => {
    const c = await limited(200)
    expect(await c.send()).toBe(true)
    for (let i = 0; i < 30; i++) expect(await c.send(undefined, true)).toBe(false)
    // A replica that died holding 60 units: they stay taken while its lease lives.
    const [dead] = await queryRows<{ id: string }>(
      h.db,
      sql`insert into billing.usage_leases (ecosystem_id, customer_id, feature, period, units, expires_at)
          values (${c.who.ecosystemId}, ${c.who.customerId}, ${CHAT_MESSAGES}, ${new Date().toISOString().slice(0, 7)}, 60, clock_timestamp() + interval '1 hour') returning id`,
    )
    expect(await c.drain()).toBe(200 - 1 - 60)
    await h.db.execute(sql`update billing.usage_leases set expires_at = clock_timestamp() - interval '1 second' where id = ${dead!.id}`)
    expect(await c.drain()).toBe(60)
    await h.app.services.billing.entitlements.flush()
    expect(await c.shown()).toMatchObject({ limit: 200, used: 200, remaining: 0 })
  })

  test('a replica that stops gives its lease’s unspent units back at once', async () => {
    const c = await limited(200)
    const replica = await h.replica()
    try {
      expect(await c.send(replica.app.services.billing.entitlements)).toBe(true)
      expect((await c.rows()).leased).toEqual([19])
    } finally {
      await replica.close()
    }
    expect(await c.rows()).toEqual({ used: 1, leased: [] })
    expect(await c.drain()).toBe(199)
  })

  test('a lowered limit applies at once: the replica gives back what is left of its lease instead of counting it as taken', async () => {
    const c = await limited(1000)
    expect(await c.send()).toBe(true)
    expect(await c.rows()).toEqual({ used: 1, leased: [50] })
    await c.setLimit(10)
    expect(await c.drain()).toBe(9)
    await h.app.services.billing.entitlements.flush()
    expect((await c.rows()).used).toBe(10)
    expect(await c.shown()).toMatchObject({ limit: 10, used: 10, remaining: 0 })
  })
})
