import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { DERIVED_RESOURCES } from '../../src/modules'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

/**
 * Every table-derived resource the app serves (DERIVED_RESOURCES), walked automatically: a row of a
 * customer of ecosystem B is out of reach of ecosystem A's owner and customers, and of another
 * customer of B where access is own-rows; afterwards it is unchanged.
 */
let h: Harness
let ownerA: RegisteredUser
let a: Provisioned
let customerA: { token: string }
let otherB: { token: string }
let rowOwnerB: { token: string }
let b: Provisioned
const rows: Record<string, { id: string; body: Record<string, unknown> }> = {}

beforeAll(async () => {
  h = await createHarness()
  ownerA = await h.register()
  a = await provision(h, ownerA)
  customerA = await customerOf(h, a, ownerA)
  const ownerB = await h.register()
  b = await provision(h, ownerB)
  rowOwnerB = await customerOf(h, b, ownerB)
  otherB = await customerOf(h, b, ownerB)
  const ids: Record<string, string> = {}
  for (const spec of DERIVED_RESOURCES) {
    const body = spec.example(ids)
    const res = await h.call('POST', `/${spec.schema}/${spec.resource}`, { token: rowOwnerB.token, body })
    if (res.status !== 201) throw new Error(`create ${spec.resource}: ${res.status} ${JSON.stringify(res.body)}`)
    ids[spec.resource] = res.body.id
    rows[spec.resource] = { id: res.body.id, body: res.body }
  }
})
afterAll(() => h.close())

describe('cross-tenant: table-derived resources', () => {
  for (const resource of DERIVED_RESOURCES) {
    test(`/${resource.schema}/${resource.resource}`, async () => {
      const row = rows[resource.resource]!
      const base = `/${resource.schema}/${resource.resource}`
      const patch = Object.fromEntries(
        Object.keys(resource.patch.properties)
          .filter((k) => k in row.body && k !== 'documentId')
          .slice(0, 1)
          .map((k) => [k, row.body[k]]),
      )
      const strangers = [
        ['owner of A naming B', { token: ownerA.token, headers: { 'x-ecosystem-id': b.ecosystem.id } }, [403]],
        ['owner of A in A', a.as(ownerA), [404]],
        ['customer of A', customerA, [404]],
        ['another customer of B', otherB, [404]],
      ] as const
      for (const [who, creds, statuses] of strangers) {
        for (const [method, path, body] of [
          ['GET', `${base}/${row.id}`],
          ['PATCH', `${base}/${row.id}`, patch],
          ['DELETE', `${base}/${row.id}`],
        ] as const) {
          const res = await h.call(method, path, { ...creds, body })
          expect(statuses as readonly number[], `${who}: ${method} ${path}`).toContain(res.status)
        }
        const list = await h.call('GET', base, creds)
        if (list.status === 200) expect(JSON.stringify(list.body), `${who}: list`).not.toContain(row.id)
        else expect(list.status, `${who}: list`).toBe(403)
      }
      const still = await h.call('GET', `${base}/${row.id}`, rowOwnerB)
      expect(still.status).toBe(200)
      expect(still.body).toEqual(row.body)
    })
  }
})
