import { createHash, randomBytes } from 'node:crypto'
import type { Harness, RegisteredUser } from '../support/harness'

export const REDIRECT = 'https://app.example.test/callback'

export function pkce() {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export interface TestClient {
  id: string
  clientId: string
  clientSecret: string
  redirectUris: string[]
  scopes: string[]
}

/** Registers a client application owned by `owner`. */
export async function createClient(h: Harness, owner: RegisteredUser, body: Record<string, unknown> = {}): Promise<TestClient> {
  const res = await h.call('POST', '/oauth/clients', {
    token: owner.token,
    body: { name: 'Test App', redirectUris: [REDIRECT], ...body },
  })
  if (res.status !== 201) throw new Error(`client: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** POST /api/oauth/authorize as `user`: the approval a consent page makes. */
export function approve(h: Harness, user: RegisteredUser, params: Record<string, string | undefined>) {
  return h.call('POST', '/api/oauth/authorize', { token: user.token, body: params })
}

/** A fresh authorization code for `user` and `client`, with its PKCE verifier. */
export async function authorizationCode(h: Harness, user: RegisteredUser, client: TestClient, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce()
  const res = await approve(h, user, {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUris[0]!,
    state: `st-${randomBytes(4).toString('hex')}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  })
  if (res.status !== 200) throw new Error(`authorize: ${res.status} ${JSON.stringify(res.body)}`)
  return { code: res.body.code as string, verifier, redirectTo: res.body.redirectTo as string, state: res.body.state as string }
}

/** POSTs form-encoded parameters, as standard OAuth clients do. */
export function postForm(h: Harness, path: string, params: Record<string, string | undefined>, headers: Record<string, string> = {}) {
  const form = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, v)
  return h.call('POST', path, {
    body: form.toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
}

export function exchange(h: Harness, client: TestClient, code: string, verifier: string, extra: Record<string, string | undefined> = {}) {
  return postForm(h, '/api/oauth/signin/exchange', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUris[0],
    client_id: client.clientId,
    client_secret: client.clientSecret,
    code_verifier: verifier,
    ...extra,
  })
}

export function refresh(h: Harness, client: TestClient, refreshToken: string, extra: Record<string, string | undefined> = {}) {
  return postForm(h, '/api/auth/refresh', {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...extra,
  })
}

/** A user who authorized `client`, and the token response they got. */
export async function authorizedTokens(h: Harness, user: RegisteredUser, client: TestClient, extra: Record<string, string> = {}) {
  const { code, verifier } = await authorizationCode(h, user, client, extra)
  const res = await exchange(h, client, code, verifier)
  if (res.status !== 200) throw new Error(`exchange: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { access_token: string; refresh_token: string; expires_in: number; token_type: string; scope: string }
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`
