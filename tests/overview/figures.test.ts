import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { bytesOf, storageApp, type StorageApp } from '../support/storage'
import { customerOf, provision } from '../support/tenancy'

// The overview's figures against what the rest of the API says: storage against the usage routes
// after real uploads (a team member's own, from the console, included), sign-ins against the
// sign-ins actually made (customers' and the team's, past ten of each).

let s: StorageApp
beforeAll(async () => {
  s = await storageApp('local')
})
afterAll(() => s.close())

const overview = async () => {
  const res = await s.h.call('GET', '/usage/overview', s.org.as(s.owner))
  expect(res.status).toBe(200)
  return res.body
}

describe('GET /usage/overview agrees with the API', () => {
  test('storage used is what the usage routes report, the owner’s own uploads included', async () => {
    const admin = s.org.as(s.owner)
    await s.upload(bytesOf('a customer file, thirty-six bytes..'))
    await s.upload(bytesOf('the owner uploads this from the console'), {}, admin)
    await s.upload(bytesOf('and a second one'), {}, admin)
    const mine = (await s.h.call('GET', '/usage/storage', admin)).body
    const theirs = (await s.h.call('GET', `/usage/storage/customers/${s.customer.customerId}`, admin)).body
    expect(mine.usageBytes).toBe('the owner uploads this from the console'.length + 'and a second one'.length)
    const o = await overview()
    expect(o.storage.usedBytes).toBe(mine.usageBytes + theirs.usageBytes)
    expect(o.storage.quotaBytes).toBe(mine.quotaBytes + theirs.quotaBytes)
    expect(o.customers).toBe(1)
  })

  test('sign-ins per day count every customer session and team sign-in made today, not another organization’s', async () => {
    const before = (await overview()).days.at(-1)
    const ada = await customerOf(s.h, s.org, s.owner, 'ada-figures')
    for (let i = 0; i < 11; i++) {
      expect((await s.h.call('POST', '/customer/token', { ...s.org.as(s.owner), body: { customerId: ada.customerId } })).status).toBe(200)
    }
    for (let i = 0; i < 12; i++) {
      expect((await s.h.call('POST', '/auth/login', { body: { email: s.owner.email, password: s.owner.password } })).status).toBe(200)
    }
    const stranger = await s.h.register()
    await provision(s.h, stranger)
    const after = (await overview()).days.at(-1)
    expect(after.signIns - before.signIns).toBe(12)
    expect(after.memberSignIns - before.memberSignIns).toBe(12)
  })
})
