import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { softwareAuthenticator } from '../support/authenticator'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { mfaKit } from '../support/mfa'

// GET /auth/admin/users: platform admins list every account with its second factor in words a
// client uses (verified, the kinds, recovery codes left), never a secret; `q` narrows, pages page,
// and a reset shows in the next list.

const ORIGIN = 'https://app.example.test'
const ADMIN = `admin-${crypto.randomUUID().slice(0, 8)}@example.test`
let h: Harness
let mfa: ReturnType<typeof mfaKit>
let admin: RegisteredUser
beforeAll(async () => {
  h = await createHarness({ ADMIN_EMAILS: ADMIN, RP_ID: 'app.example.test', WEBAUTHN_ORIGINS: ORIGIN })
  mfa = mfaKit(h)
  admin = await h.register({ email: ADMIN, name: 'Platform Admin' })
})
afterAll(() => h.close())

type Item = {
  id: string
  email: string
  name: string
  platformAdmin: boolean
  lastSignInAt: string | null
  secondFactor: { verified: boolean; methods: string[]; recoveryCodesLeft: number }
}
const list = async (query: string, token = admin.token) => {
  const res = await h.call('GET', `/auth/admin/users?${query}`, { token })
  expect(res.status).toBe(200)
  return res.body as { items: Item[]; total: number; page: number; pageSize: number }
}
const find = async (user: RegisteredUser) => (await list(`q=${encodeURIComponent(user.email)}`)).items.find((i) => i.id === user.user.id)!
const code = (res: { status: number; body: { error?: { code: string } } }) => [res.status, res.body?.error?.code]

describe('the accounts list of platform admins', () => {
  test('a TOTP account is verified with its method and codes left, a plain one is not; only the listed fields, no secret', async () => {
    const enrolled = await h.register({ name: 'Totp Person' })
    await mfa.enrol(enrolled)
    const plain = await h.register({ name: 'Plain Person' })
    const { items, total } = await list('pageSize=100')
    expect(total).toBe(items.length)
    const byId = new Map(items.map((i) => [i.id, i]))
    expect(byId.get(enrolled.user.id)).toMatchObject({
      email: enrolled.email,
      name: 'Totp Person',
      platformAdmin: false,
      secondFactor: { verified: true, methods: ['totp'], recoveryCodesLeft: 10 },
    })
    expect(byId.get(plain.user.id)!.secondFactor).toEqual({ verified: false, methods: [], recoveryCodesLeft: 0 })
    expect(byId.get(admin.user.id)!.platformAdmin).toBe(true)
    // Registration began a session: that is the newest sign-in on record.
    expect(Date.parse(byId.get(plain.user.id)!.lastSignInAt!)).toBeGreaterThan(Date.now() - 60_000)
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['createdAt', 'email', 'id', 'lastSignInAt', 'name', 'platformAdmin', 'secondFactor'])
      expect(Object.keys(item.secondFactor).sort()).toEqual(['methods', 'recoveryCodesLeft', 'verified'])
    }
    // Ordered by e-mail, whatever its case.
    const emails = items.map((i) => i.email.toLowerCase())
    expect(emails).toEqual([...emails].sort())
  })

  test('a passkey shows as `passkey`; a used recovery code is no longer left', async () => {
    const user = await h.register()
    const authenticator = await softwareAuthenticator({ origin: ORIGIN })
    const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
    const made = await h.call('POST', '/auth/passkeys/register/verify', {
      token: user.token,
      body: { response: authenticator.create(options), name: 'Laptop' },
    })
    expect(made.status).toBe(200)
    expect((await find(user)).secondFactor).toEqual({ verified: true, methods: ['passkey'], recoveryCodesLeft: 10 })

    const weak = await mfa.login(user)
    expect((await h.call('POST', '/auth/mfa/verify', { token: weak.token, body: { recoveryCode: made.body.recoveryCodes[0] } })).status).toBe(200)
    expect((await find(user)).secondFactor.recoveryCodesLeft).toBe(9)
  })

  test('`q` matches e-mail or name, any case, its wildcards taken literally; pages page', async () => {
    const tag = `zq${crypto.randomUUID().slice(0, 6)}`
    const people = [] as RegisteredUser[]
    for (const n of [1, 2, 3]) people.push(await h.register({ email: `${tag}-${n}@example.test`, name: `Person ${n}` }))
    const named = await h.register({ name: `Someone ${tag.toUpperCase()} Else` })

    const all = await list(`q=${tag.toUpperCase()}&pageSize=100`)
    expect(all.items.map((i) => i.id).sort()).toEqual([...people, named].map((u) => u.user.id).sort())
    expect((await list(`q=${tag}-2`)).items.map((i) => i.id)).toEqual([people[1]!.user.id])
    expect((await list(`q=${encodeURIComponent(`${tag}%`)}`)).total).toBe(0)
    expect((await list(`q=${encodeURIComponent(`${tag}_1`)}`)).total).toBe(0)

    const first = await list(`q=${tag}&page=1&pageSize=2`)
    const second = await list(`q=${tag}&page=2&pageSize=2`)
    expect([first.total, first.page, first.pageSize, first.items.length]).toEqual([4, 1, 2, 2])
    expect([second.total, second.page, second.items.length]).toEqual([4, 2, 2])
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(4)
    expect((await list(`q=${tag}&page=3&pageSize=2`)).items).toEqual([])
    expect((await h.call('GET', '/auth/admin/users?pageSize=101', { token: admin.token })).status).toBe(400)
  })

  test('others get 403 forbidden, no credential 401; an admin with a factor must verify it first', async () => {
    const stranger = await h.register()
    expect(code(await h.call('GET', '/auth/admin/users', { token: stranger.token }))).toEqual([403, 'forbidden'])
    expect((await h.call('GET', '/auth/admin/users')).status).toBe(401)

    const other = `admin2-${crypto.randomUUID().slice(0, 8)}@example.test`
    const h2 = await createHarness({ ADMIN_EMAILS: other })
    try {
      const kit = mfaKit(h2)
      const strongAdmin = await h2.register({ email: other })
      const { secret } = await kit.enrol(strongAdmin)
      expect(code(await h2.call('GET', '/auth/admin/users', { token: (await kit.login(strongAdmin)).token }))).toEqual([403, 'mfa_required'])
      expect((await h2.call('GET', '/auth/admin/users', { token: (await kit.strong(strongAdmin, secret)).token })).status).toBe(200)
    } finally {
      await h2.close()
    }
  })

  test('after an admin’s reset the account lists as not verified, with no recovery codes', async () => {
    const user = await h.register()
    await mfa.enrol(user)
    expect((await find(user)).secondFactor.verified).toBe(true)
    expect((await h.call('DELETE', `/auth/admin/users/${user.user.id}/factors`, { token: admin.token })).status).toBe(204)
    expect((await find(user)).secondFactor).toEqual({ verified: false, methods: [], recoveryCodesLeft: 0 })
  })
})
