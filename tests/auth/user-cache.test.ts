import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import * as OTPAuth from 'otpauth'
import { adminCreate } from '../../src/cli/admin'
import { ReplicaCache } from '../../src/platform/replica-cache'
import { createHarness, type Harness } from '../support/harness'
import { until } from '../support/wait'

// P1 (issue 30): an account is read from memory while it is unchanged; every change reaches every replica.

let h: Harness
let replica: Awaited<ReturnType<Harness['replica']>>
beforeAll(async () => {
  h = await createHarness()
  await h.register() // the first account is the instance's admin; the ones below are not
  replica = await h.replica()
})
afterAll(async () => {
  await replica.close()
  await h.close()
})

const meOn = async (call: Harness['call'], token: string) => {
  const res = await call('GET', '/auth/me', { token })
  expect(res.status).toBe(200)
  return res.body as {
    name: string
    emailVerified: boolean
    capabilities: string[]
    mfa: { enabled: boolean; factors: { type: string; lastUsedAt: string | null }[] }
  }
}
/** Waits until the replica's /auth/me shows what `holds` expects (a NOTIFY crosses replicas, not at once). */
const onReplica = async (token: string, holds: (me: Awaited<ReturnType<typeof meOn>>) => boolean) => {
  await until(async () => holds(await meOn(replica.call, token)), 2_000)
}

describe('accounts from memory, across replicas', () => {
  test('an unchanged account is served from memory: a write that tells no replica is not seen, one that does is', async () => {
    const user = await h.register({ name: 'Before' })
    expect((await meOn(replica.call, user.token)).name).toBe('Before')
    // Behind the service's back: no replica hears of it, so both keep answering from memory.
    await h.db.execute(sql`update auth.users set name = 'Behind' where id = ${user.user.id}`)
    expect((await meOn(replica.call, user.token)).name).toBe('Before')
    expect((await meOn(h.call, user.token)).name).toBe('Behind') // the writing replica had not read it yet

    // Through the service: this replica sees it as the PATCH returns, the other one as the NOTIFY arrives.
    expect((await h.call('PATCH', '/auth/me', { token: user.token, body: { name: 'After' } })).status).toBe(200)
    expect((await meOn(h.call, user.token)).name).toBe('After')
    await onReplica(user.token, (me) => me.name === 'After')
  })

  test('a second factor added and removed on one replica shows on the other', async () => {
    const user = await h.register()
    expect((await meOn(replica.call, user.token)).mfa.enabled).toBe(false)
    const start = await h.call('POST', '/auth/mfa/totp', { token: user.token, body: { name: 'Phone' } })
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(start.body.secret), algorithm: 'SHA1', digits: 6, period: 30 })
    const confirm = await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: user.token, body: { code: totp.generate() } })
    expect(confirm.status).toBe(200)
    expect((await meOn(h.call, user.token)).mfa.enabled).toBe(true)
    await onReplica(user.token, (me) => me.mfa.enabled && me.mfa.factors[0]?.type === 'totp')

    // The confirming session's access token is aal1 of an account that now has a factor: it refreshes into aal2 to remove it.
    const strong = (await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).body.token
    const removed = await h.call('DELETE', `/auth/mfa/factors/${start.body.factorId}`, { token: strong })
    expect(removed.status).toBe(204)
    expect((await meOn(h.call, strong)).mfa.enabled).toBe(false)
    await onReplica(strong, (me) => !me.mfa.enabled)
  })

  test('an e-mail verified on one replica shows on the other', async () => {
    const user = await h.register()
    expect((await meOn(replica.call, user.token)).emailVerified).toBe(false)
    const token = crypto.randomUUID()
    await h.db.execute(sql`insert into auth.email_tokens (token_hash, user_id, email_key, purpose, expires_at)
      values (encode(sha256(convert_to(${token}, 'UTF8')), 'hex'), ${user.user.id}, ${user.email.toLowerCase()}, 'verify_email', now() + interval '1 hour')`)
    expect((await h.call('POST', '/auth/verify-email/confirm', { body: { token } })).status).toBe(200)
    expect((await meOn(h.call, user.token)).emailVerified).toBe(true)
    await onReplica(user.token, (me) => me.emailVerified)
  })

  test('an account made admin from the command line is admin on the other replica once the NOTIFY arrives', async () => {
    const user = await h.register()
    expect((await replica.call('GET', '/system/backups', { token: user.token })).status).toBe(403) // now in memory, without admin
    expect(await adminCreate(h.deps, { email: user.email, name: null, password: null })).toBe('promoted')
    await until(async () => (await replica.call('GET', '/system/backups', { token: user.token })).status === 200, 2_000)
    expect((await meOn(replica.call, user.token)).capabilities).toEqual(['admin'])
  })
})

describe('ReplicaCache', () => {
  const database = { listen: async () => async () => {} }

  test('holds at most `limit` entries, dropping the least recently used', async () => {
    const cache = new ReplicaCache<string>({ database }, { channel: 'test', limit: 3, ttlMs: 60_000 })
    let loads = 0
    const get = (key: string) => cache.get(key, async () => `${key}#${++loads}`)
    for (const key of ['a', 'b', 'c']) await get(key)
    expect(await get('a')).toBe('a#1') // a is now the most recently used
    await get('d') // drops b
    expect(cache.size).toBe(3)
    expect([await get('a'), await get('c'), await get('d')]).toEqual(['a#1', 'c#3', 'd#4'])
    expect(await get('b')).toBe('b#5')
  })

  test('concurrent reads share one load; a load that overlaps a change answers but is not kept; misses are not kept', async () => {
    const cache = new ReplicaCache<string>({ database }, { channel: 'test', limit: 10, ttlMs: 60_000 })
    let release!: () => void
    let loads = 0
    const slow = () => {
      loads++
      return new Promise<string>((resolve) => (release = () => resolve('old')))
    }
    const [first, second] = [cache.get('k', slow), cache.get('k', slow)]
    expect(loads).toBe(1)
    cache.forget('k') // the row changed while it was being read
    release()
    expect([await first, await second]).toEqual(['old', 'old'])
    expect(await cache.get('k', async () => 'new')).toBe('new')
    expect(await cache.get('gone', async () => undefined)).toBeUndefined()
    expect(await cache.get('gone', async () => 'back')).toBe('back')
  })

  test('an entry is trusted for ttlMs at most', async () => {
    const cache = new ReplicaCache<number>({ database }, { channel: 'test', limit: 10, ttlMs: 20 })
    expect(await cache.get('k', async () => 1)).toBe(1)
    expect(await cache.get('k', async () => 2)).toBe(1)
    await Bun.sleep(30)
    expect(await cache.get('k', async () => 3)).toBe(3)
  })

  test('with `concerns`, one change clears every entry it concerns, under any key, and no load under way is kept', async () => {
    type Eco = { id: string; org: string }
    const cache = new ReplicaCache<Eco>(
      { database },
      { channel: 'test', limit: 10, ttlMs: 60_000, concerns: (changed, _key, e) => e.id === changed || e.org === changed },
    )
    const a = { id: 'a', org: 'o1' }
    await cache.get('a', async () => a)
    await cache.get('acme.main', async () => a)
    await cache.get('b', async () => ({ id: 'b', org: 'o2' }))
    let release!: () => void
    const slow = cache.get('acme.other', () => new Promise<Eco>((resolve) => (release = () => resolve({ id: 'c', org: 'o1' }))))
    const slowOther = cache.get('d', async () => {
      await Bun.sleep(5)
      return { id: 'd', org: 'o3' }
    })
    cache.forget('o1') // the organization's policy changed
    expect(cache.size).toBe(1) // b only
    const joined = cache.get('acme.other', async () => ({ id: 'c', org: 'o1', fresh: true }) as Eco)
    release()
    expect(await slow).toEqual({ id: 'c', org: 'o1' })
    expect(await joined).toEqual({ id: 'c', org: 'o1', fresh: true } as Eco) // a read after the change does not join the one before it
    await slowOther
    expect(await cache.get('d', async () => ({ id: 'd', org: 'reloaded' }))).toEqual({ id: 'd', org: 'o3' }) // not concerned: kept
    expect(await cache.get('a', async () => ({ id: 'a', org: 'o9' }))).toEqual({ id: 'a', org: 'o9' })
  })

  test("a load in the caller's transaction (`shared: false`) joins no load under way and none joins it, and still fills the cache", async () => {
    const cache = new ReplicaCache<string>({ database }, { channel: 'test', limit: 10, ttlMs: 60_000 })
    let release!: () => void
    const onPool = cache.get('k', () => new Promise<string>((resolve) => (release = () => resolve('pool'))))
    expect(await cache.get('k', async () => 'tx', { shared: false })).toBe('tx')
    const inTx = cache.get('j', async () => 'tx', { shared: false })
    expect(await cache.get('j', async () => 'pool')).toBe('pool')
    await inTx
    release()
    expect(await onPool).toBe('pool')
    expect(await cache.get('m', async () => 'tx', { shared: false })).toBe('tx')
    expect(await cache.get('m', async () => 'pool')).toBe('tx')
  })
})
