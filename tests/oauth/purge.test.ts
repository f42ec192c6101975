import { afterAll, beforeAll, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { purgeOAuth } from '../../src/modules/oauth/jobs'
import { oauthCodes, oauthGrants, oauthRefreshTokens } from '../../src/modules/oauth/schema'
import { sha256Hex } from '../../src/platform/crypto'
import { createHarness, type Harness } from '../support/harness'
import { authorizationCode, authorizedTokens, createClient, refresh } from './support'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const DAY = 24 * 3600 * 1000

test('purges old codes, grants ended over a week ago and long-used refresh tokens; keeps the rest', async () => {
  const owner = await h.register()
  const user = await h.register()
  const client = await createClient(h, owner)
  const staleCode = await authorizationCode(h, user, client)
  const freshCode = await authorizationCode(h, user, client)
  await h.db
    .update(oauthCodes)
    .set({ expiresAt: new Date(Date.now() - 2 * DAY) })
    .where(eq(oauthCodes.codeHash, sha256Hex(staleCode.code)))

  const live = await authorizedTokens(h, user, client)
  const rotated = await refresh(h, client, live.refresh_token)
  await h.db
    .update(oauthRefreshTokens)
    .set({ usedAt: new Date(Date.now() - 8 * DAY) })
    .where(eq(oauthRefreshTokens.tokenHash, sha256Hex(live.refresh_token)))
  const ended = await authorizedTokens(h, user, client)
  const recent = await authorizedTokens(h, user, client)
  const grantOf = async (refreshToken: string) =>
    (
      await h.db
        .select()
        .from(oauthRefreshTokens)
        .where(eq(oauthRefreshTokens.tokenHash, sha256Hex(refreshToken)))
    )[0]!.grantId
  const endedGrant = await grantOf(ended.refresh_token)
  const recentGrant = await grantOf(recent.refresh_token)
  await h.db
    .update(oauthGrants)
    .set({ revokedAt: new Date(Date.now() - 8 * DAY) })
    .where(eq(oauthGrants.id, endedGrant))
  await h.db
    .update(oauthGrants)
    .set({ revokedAt: new Date(Date.now() - DAY) })
    .where(eq(oauthGrants.id, recentGrant))

  expect(await runJob(h.deps, purgeOAuth)).toEqual({ codes: 1, grants: 1, refreshTokens: 1 })
  const codes = await h.db
    .select()
    .from(oauthCodes)
    .where(inArray(oauthCodes.codeHash, [sha256Hex(staleCode.code), sha256Hex(freshCode.code)]))
  expect(codes.map((c) => c.codeHash)).toEqual([sha256Hex(freshCode.code)])
  const grants = await h.db
    .select({ id: oauthGrants.id })
    .from(oauthGrants)
    .where(inArray(oauthGrants.id, [endedGrant, recentGrant]))
  expect(grants.map((g) => g.id)).toEqual([recentGrant])
  // The live grant keeps working through its current refresh token.
  expect((await refresh(h, client, rotated.body.refresh_token)).status).toBe(200)
})
