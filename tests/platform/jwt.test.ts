import { describe, expect, test } from 'bun:test'
import { decodeProtectedHeader, jwtVerify } from 'jose'
import { AccessTokens } from '../../src/platform/jwt'

// The server signs its access tokens itself (HMAC-SHA256); an independent JOSE library must accept them.

const secret = 'a-secret-of-at-least-thirty-two-characters'
const at = new Date('2026-11-28T10:00:00Z')
const tokens = new AccessTokens(secret, 'https://ecobase.test', () => at)
const key = new TextEncoder().encode(secret)

describe('access tokens', () => {
  test('a signed token is a compact HS256 JWS that jose verifies, with iss, iat and exp set and the claims kept', async () => {
    const token = await tokens.sign({ sub: 'user-1', typ: 'user', sid: 'session-1', amr: ['pwd'], mfa: false }, 900)
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: 'https://ecobase.test', currentDate: at })
    const iat = at.getTime() / 1000
    expect(payload).toEqual({ sub: 'user-1', typ: 'user', sid: 'session-1', amr: ['pwd'], mfa: false, iss: 'https://ecobase.test', iat, exp: iat + 900 })
    expect(await tokens.verify(token)).toMatchObject({ sub: 'user-1', sid: 'session-1' })
  })

  test('a token with a changed payload, or signed with another key, is refused', async () => {
    const token = await tokens.sign({ sub: 'user-1', typ: 'user' }, 900)
    const [header, , signature] = token.split('.')
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'admin', typ: 'user', iss: 'https://ecobase.test', exp: 2e9 })).toString('base64url')}.${signature}`
    expect((await tokens.verify(forged).catch((err) => err)).code).toBe('unauthorized')
    const other = await new AccessTokens('another-secret-of-thirty-two-characters!', 'https://ecobase.test', () => at).sign({ sub: 'user-1', typ: 'user' }, 900)
    expect((await tokens.verify(other).catch((err) => err)).code).toBe('unauthorized')
  })
})
