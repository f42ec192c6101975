import { afterAll, beforeAll, expect, test } from 'bun:test'
import { and, eq, isNotNull } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { purgeSessions } from '../../src/modules/auth/jobs'
import { purgeCustomerSessions } from '../../src/modules/customer/jobs'
import { mfaFailures, refreshTokens, sessions } from '../../src/modules/auth/schema'
import { customerRefreshTokens, customerSessions } from '../../src/modules/customer/schema'
import { openPostgres } from '../../src/platform/db'
import { withAdvisoryLock } from '../../src/platform/db/locks'
import { testDatabaseUrl } from '../support/database'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const sessionOf = async (userId: string) => (await h.db.select().from(sessions).where(eq(sessions.subjectId, userId)))[0]

test('purges sessions revoked or expired over a week ago, with their refresh tokens, and keeps the rest', async () => {
  const live = await h.register()
  const revokedLongAgo = await h.register()
  const revokedRecently = await h.register()
  await h.call('POST', '/auth/revoke-all', { token: revokedLongAgo.token })
  await h.call('POST', '/auth/revoke-all', { token: revokedRecently.token })
  const old = new Date(Date.now() - 8 * 24 * 3600 * 1000)
  await h.db.update(sessions).set({ revokedAt: old }).where(eq(sessions.subjectId, revokedLongAgo.user.id))
  const purgedId = (await sessionOf(revokedLongAgo.user.id))!.id

  // Wrong second-factor answers: one two days old goes, one an hour old (still in a window someone may configure) stays.
  await h.db.insert(mfaFailures).values([
    { userId: live.user.id, at: new Date(Date.now() - 2 * 24 * 3600 * 1000) },
    { userId: live.user.id, at: new Date(Date.now() - 3600 * 1000) },
  ])

  const report = await runJob(h.deps, purgeSessions)
  expect(report).toEqual({ sessions: 1, refreshTokens: 0, mfaFailures: 1 })
  expect(await sessionOf(revokedLongAgo.user.id)).toBeUndefined()
  expect(await h.db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, purgedId))).toEqual([])
  expect(await sessionOf(revokedRecently.user.id)).toBeDefined()
  expect(await h.db.select().from(mfaFailures).where(eq(mfaFailures.userId, live.user.id))).toHaveLength(1)
  expect((await h.call('GET', '/auth/me', { token: live.token })).status).toBe(200)
  expect(await runJob(h.deps, purgeSessions)).toEqual({ sessions: 0, refreshTokens: 0, mfaFailures: 0 })
})

test('purges customer sessions, and refresh tokens used over a week ago in sessions still alive', async () => {
  const owner = await h.register()
  const org = await provision(h, owner)
  const ended = await customerOf(h, org, owner)
  const active = await customerOf(h, org, owner)
  await h.call('POST', '/customer/revoke', { body: { refreshToken: ended.refreshToken } })
  const old = new Date(Date.now() - 8 * 24 * 3600 * 1000)
  await h.db.update(customerSessions).set({ revokedAt: old }).where(eq(customerSessions.subjectId, ended.customerId))
  let refreshToken = active.refreshToken
  for (let i = 0; i < 3; i++) {
    const res = await h.call('POST', '/customer/refresh', { body: { refreshToken } })
    expect(res.status).toBe(200)
    refreshToken = res.body.refreshToken
  }
  const [session] = await h.db.select().from(customerSessions).where(eq(customerSessions.subjectId, active.customerId))
  await h.db
    .update(customerRefreshTokens)
    .set({ usedAt: old })
    .where(and(eq(customerRefreshTokens.sessionId, session!.id), isNotNull(customerRefreshTokens.usedAt)))

  const report = await runJob(h.deps, purgeCustomerSessions)
  expect(report).toEqual({ customerSessions: 1, customerRefreshTokens: 3 })
  expect(await h.db.select().from(customerSessions).where(eq(customerSessions.subjectId, ended.customerId))).toEqual([])
  const left = await h.db.select().from(customerRefreshTokens).where(eq(customerRefreshTokens.sessionId, session!.id))
  expect(left.map((t) => t.usedAt)).toEqual([null])
  expect((await h.call('POST', '/customer/refresh', { body: { refreshToken } })).status).toBe(200)
})

// PGlite is one process with one connection: no second replica can hold the lock there.
test.if(Boolean(testDatabaseUrl))('a job whose lock another replica holds is skipped', async () => {
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  let entered!: () => void
  const inside = new Promise<void>((r) => (entered = r))
  const holder = withAdvisoryLock(h.db, 'job:purge-sessions', async () => {
    entered()
    await held
  })
  await inside
  const other = await openPostgres(h.databaseUrl!, { max: 2 })
  try {
    expect(await runJob({ ...h.deps, db: other.db }, purgeSessions)).toBeNull()
  } finally {
    release()
    await holder
    await other.close()
  }
  expect(await runJob(h.deps, purgeSessions)).not.toBeNull()
})
