import { afterAll, beforeAll, expect, test } from 'bun:test'
import * as oauth from 'oauth4webapi'
import { createHarness, type Harness } from '../support/harness'

/**
 * "Sign in with Ecobase" exactly as a third-party application does it with a standard OAuth
 * library (oauth4webapi): it knows only the issuer URL and its client credentials. The user's
 * browser is played by the built-in consent page's own script, run against a minimal DOM.
 */
const ISSUER = new URL('https://ecobase.test')
const REDIRECT_URI = 'https://photos.example.test/oauth/callback'

let h: Harness
const viaApp = (url: string | URL, init?: object): Promise<Response> => h.app.handle(new Request(url, init as RequestInit))
const options = { [oauth.customFetch]: viaApp }

beforeAll(async () => {
  h = await createHarness({ PUBLIC_URL: ISSUER.origin })
})
afterAll(() => h.close())

/** Opens the authorization URL, signs in and clicks "Allow" on the built-in page; resolves to the callback URL. */
async function browser(authorizationUrl: URL, login: { email: string; password: string }, calls: string[] = []): Promise<URL> {
  const page = await viaApp(authorizationUrl)
  expect(page.status).toBe(200)
  const html = await page.text()
  const config = /<script type="application\/json" id="config">([\s\S]*?)<\/script>/.exec(html)![1]!
  const script = /<script nonce="[^"]+">([\s\S]*?)<\/script>/.exec(html)![1]!
  type Element = { hidden: boolean; textContent: string; on: Record<string, (e?: unknown) => Promise<void> | void> }
  const elements = new Map<string, Element>()
  const element = (id: string) => {
    if (!elements.has(id)) elements.set(id, { hidden: id === 'consent', textContent: id === 'config' ? config : '', on: {} })
    const el = elements.get(id)!
    return {
      ...el,
      set hidden(v: boolean) {
        el.hidden = v
      },
      get hidden() {
        return el.hidden
      },
      set textContent(v: string) {
        el.textContent = v
      },
      get textContent() {
        return el.textContent
      },
      addEventListener: (type: string, fn: Element['on'][string]) => {
        el.on[type] = fn
      },
    }
  }
  let navigate!: (url: URL) => void
  const navigated = new Promise<URL>((resolve) => (navigate = resolve))
  const document = { getElementById: element }
  const location = { assign: (url: string) => navigate(new URL(url, authorizationUrl)) }
  const pageFetch = async (url: string, init: RequestInit) => {
    const target = new URL(url, authorizationUrl)
    const res = await viaApp(target, init)
    calls.push(`${init.method} ${target.pathname} ${res.status}`)
    return res
  }
  class FormData {
    get(name: 'email' | 'password') {
      return login[name]
    }
  }
  new Function('document', 'fetch', 'location', 'FormData', script)(document, pageFetch, location, FormData)
  await elements.get('signin')!.on.submit!({ preventDefault() {}, target: element('signin') })
  expect(elements.get('error')?.textContent ?? '').toBe('')
  expect(elements.get('consent')!.hidden).toBe(false)
  await elements.get('approve')!.on.click!()
  return navigated
}

test('discovery, authorize with PKCE, exchange, /api/auth/me, refresh, revoke — with oauth4webapi', async () => {
  // The developer registers the application; the user has an Ecobase account.
  const developer = await h.register()
  const user = await h.register({ name: 'Ada' })
  const registered = await h.call('POST', '/oauth/clients', {
    token: developer.token,
    body: { name: 'Photos', redirectUris: [REDIRECT_URI], scopes: ['profile', 'email'] },
  })
  expect(registered.status).toBe(201)
  const client: oauth.Client = { client_id: registered.body.clientId }
  const clientAuth = oauth.ClientSecretPost(registered.body.clientSecret)

  // Discovery (RFC 8414).
  const as = await oauth.processDiscoveryResponse(ISSUER, await oauth.discoveryRequest(ISSUER, { algorithm: 'oauth2', ...options }))
  expect(as.code_challenge_methods_supported).toEqual(['S256'])

  // Authorization request with PKCE; the user signs in and allows it.
  const verifier = oauth.generateRandomCodeVerifier()
  const state = oauth.generateRandomState()
  const authorizationUrl = new URL(as.authorization_endpoint!)
  authorizationUrl.searchParams.set('response_type', 'code')
  authorizationUrl.searchParams.set('client_id', client.client_id)
  authorizationUrl.searchParams.set('redirect_uri', REDIRECT_URI)
  authorizationUrl.searchParams.set('scope', 'profile email')
  authorizationUrl.searchParams.set('state', state)
  authorizationUrl.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(verifier))
  authorizationUrl.searchParams.set('code_challenge_method', 'S256')
  const pageCalls: string[] = []
  const callback = await browser(authorizationUrl, { email: user.email, password: user.password }, pageCalls)
  expect(callback.origin + callback.pathname).toBe(REDIRECT_URI)
  // The page signed in, approved, and ended the session it opened only for this approval.
  expect(pageCalls).toEqual(['POST /auth/login 200', 'POST /api/oauth/authorize 200', 'POST /auth/revoke 204'])

  // Code exchange at the token endpoint.
  const params = oauth.validateAuthResponse(as, client, callback, state)
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, REDIRECT_URI, verifier, options),
  )
  expect(tokens.token_type).toBe('bearer')
  expect(tokens.expires_in).toBe(3600)
  expect(tokens.scope).toBe('profile email')

  // An API call with the access token.
  const meUrl = new URL(as.ecobase_me_endpoint as string)
  const me = await oauth.protectedResourceRequest(tokens.access_token, 'GET', meUrl, undefined, undefined, options)
  expect(me.status).toBe(200)
  expect(await me.json()).toMatchObject({ id: user.user.id, name: 'Ada', email: user.email })

  // Refresh: new tokens, and the old refresh token is spent.
  const refreshed = await oauth.processRefreshTokenResponse(
    as,
    client,
    await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, options),
  )
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
  const again = await oauth.protectedResourceRequest(refreshed.access_token, 'GET', meUrl, undefined, undefined, options)
  expect(again.status).toBe(200)

  // Revocation (RFC 7009), here with HTTP Basic client authentication.
  const basicAuth = oauth.ClientSecretBasic(registered.body.clientSecret)
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, basicAuth, refreshed.refresh_token!, options))
  const afterRevoke = await oauth.protectedResourceRequest(refreshed.access_token, 'GET', meUrl, undefined, undefined, options)
  expect(afterRevoke.status).toBe(401)
  const refused = await oauth
    .processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, refreshed.refresh_token!, options))
    .catch((err: unknown) => err)
  expect(refused).toBeInstanceOf(oauth.ResponseBodyError)
  expect((refused as oauth.ResponseBodyError).error).toBe('invalid_grant')

  // The user no longer sees the application among those they authorized.
  expect((await h.call('GET', '/oauth/grants', { token: user.token })).body.total).toBe(0)
})

test('a declined request returns access_denied with the state to the application', async () => {
  const developer = await h.register()
  const { body: registered } = await h.call('POST', '/oauth/clients', {
    token: developer.token,
    body: { name: 'Nosy', redirectUris: [REDIRECT_URI] },
  })
  const as = await oauth.processDiscoveryResponse(ISSUER, await oauth.discoveryRequest(ISSUER, { algorithm: 'oauth2', ...options }))
  const url = new URL(as.authorization_endpoint!)
  const state = oauth.generateRandomState()
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: registered.clientId,
    redirect_uri: REDIRECT_URI,
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v)
  const html = await (await viaApp(url)).text()
  const denyUrl = JSON.parse(/<script type="application\/json" id="config">([\s\S]*?)<\/script>/.exec(html)![1]!).denyUrl
  const error = (() => {
    try {
      oauth.validateAuthResponse(as, { client_id: registered.clientId }, new URL(denyUrl), state)
    } catch (err) {
      return err
    }
  })()
  expect(error).toBeInstanceOf(oauth.AuthorizationResponseError)
  expect((error as oauth.AuthorizationResponseError).error).toBe('access_denied')
})
