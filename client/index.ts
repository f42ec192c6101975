import { treaty, type Treaty } from '@elysiajs/eden'
import { chatClient } from './chat'
import { feedClient } from './feed'
import { realtimeClient } from './realtime'
import { authorizedFetch, type FetchLike } from './fetcher'
import type { Api, AuthLogin, AuthRegister } from './schema'
import { Session } from './session'
import { isCustomerToken, type Tokens } from './tokens'
import { upload, type UploadOptions } from './upload'

export type * from './schema'
/** Shorter names for the models used most. */
export type { ChatConversation as Conversation, ChatMessage as Message, PersonaMemory as Memory } from './schema'
export type { FetchLike } from './fetcher'
export { apiError, EcobaseError, type ErrorCode } from './errors'
export type { ChatEvent, StreamOptions } from './chat'
export type { FeedEvent, FeedItem } from './feed'
export type { Change, RealtimeEvent, SubscribeOptions, Topic, TopicRecords } from './realtime'
export type { Tokens } from './tokens'
export type { RequestOptions, Result } from './treaty'
export type { Attachment, UploadOptions, UploadProgress, UploadResult } from './upload'

export interface ClientOptions {
  /** Where the API lives: `https://api.example.com`, or a same-origin path such as `/api`. */
  baseUrl: string
  /** Defaults to the global `fetch`, looked up at call time. */
  fetch?: FetchLike
  /** Tokens to start with, e.g. restored from storage, or `{ token: 'eco_...' }` for an API token. */
  tokens?: Tokens | null
  /** Called whenever the tokens change (sign-in, refresh, sign-out, session ended); null = signed out. */
  onTokens?: (tokens: Tokens | null) => void | Promise<void>
  /**
   * The ecosystem (id or rdid) that account credentials act in: sent as X-Ecosystem-Id. A function
   * is asked at each request; `setEcosystem` changes it, `in(ecosystem)` picks one for some calls.
   * A customer token implies its ecosystem and needs none.
   */
  ecosystem?: string | null | (() => string | null | undefined)
  /** Sent with every request; a function is asked each time. */
  headers?: Record<string, string> | (() => Record<string, string> | undefined)
  /**
   * For a page served by the API's own origin (or a CORS origin): the refresh token stays in the
   * server's httpOnly `ecobase_refresh` cookie and never reaches script. Sign-in keeps only the
   * access token (in memory); `refresh()` on page load restores the session from the cookie;
   * refresh and sign-out send the cookie.
   */
  refreshCookie?: boolean
  /** Refresh this long before the access token expires (default 30 s); 0 refreshes only on a 401. */
  refreshLeewaySeconds?: number
  /** The clock for proactive refresh, in ms (default `Date.now`). */
  now?: () => number
}

/** Routes that take no bearer token and must never trigger a refresh. */
const PUBLIC_AUTH_PATHS = ['/auth/login', '/auth/register', '/auth/refresh', '/auth/revoke', '/customer/refresh', '/customer/revoke']
const ECOSYSTEM_HEADER = 'x-ecosystem-id'

/**
 * A client for one server and one signed-in user (or none). No globals: make one per user
 * session, or several side by side.
 *
 * ```ts
 * const client = createClient({ baseUrl: 'https://api.example.com', tokens: load(), onTokens: save })
 * const { error } = await client.login({ email, password })
 * const { data: me } = await client.api.auth.me.get()
 * ```
 */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '')
  const relative = base === '' || base.startsWith('/')
  if (!relative && !/^https?:\/\//i.test(base)) {
    throw new TypeError(`baseUrl must be an http(s) URL or a path such as /api, not ${JSON.stringify(options.baseUrl)}`)
  }
  const basePath = new URL(base || '/', 'http://relative.invalid').pathname.replace(/\/+$/, '')
  const publicPaths = new Set(PUBLIC_AUTH_PATHS.map((p) => basePath + p))
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init))
  const headers = options.headers

  const config = (fetcher: FetchLike): Treaty.Config =>
    ({
      fetcher: fetcher as typeof fetch,
      headers: typeof headers === 'function' ? () => headers() : headers,
      // Eden would turn every date-looking string (even inside a message text) into a Date,
      // which the types do not say; keep strings as the server sent them.
      parseDate: false,
      // A relative base URL (same origin in a browser) must not get a scheme prepended.
      keepDomain: relative,
    }) satisfies Treaty.Config

  const typed = (fetcher: FetchLike) => treaty(base, config(fetcher)) as unknown as Api
  // Sign-in, refresh and sign-out go straight to the server, never through the refreshing fetch.
  const plain = typed(baseFetch)

  const cookie = options.refreshCookie ?? false
  const withCookie = { fetch: { credentials: 'include' as const } }
  const session = new Session({
    cookie,
    tokens: options.tokens,
    onTokens: options.onTokens,
    leewayMs: (options.refreshLeewaySeconds ?? 30) * 1000,
    now: options.now ?? Date.now,
    async refresh(refreshToken, accessToken) {
      // A customer session (a token from POST /customer/token) rotates at /customer/refresh.
      const res =
        refreshToken && accessToken && isCustomerToken(accessToken)
          ? await plain.customer.refresh.post({ refreshToken })
          : await plain.auth.refresh.post(refreshToken ? { refreshToken } : {}, cookie ? withCookie : undefined)
      if (res.data) return { ok: true, tokens: { token: res.data.token, refreshToken: cookie ? null : res.data.refreshToken } }
      // 400/401/403: the server refused this refresh token, so the session is over. Anything
      // else (offline, 429, 5xx) may pass; keep the tokens and let a later call try again.
      return { ok: false, definitive: res.status === 400 || res.status === 401 || res.status === 403 }
    },
  })

  const authFetch = authorizedFetch(baseFetch, session, (url) => publicPaths.has(url.pathname.replace(/\/+$/, '')))
  let ecosystem = options.ecosystem
  /** The parts of the client that act in an ecosystem, bound to one (a getter, asked per request). */
  const scoped = (current: () => string | null | undefined) => {
    const fetcher: FetchLike = (input, init = {}) => {
      const id = current()
      const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined))
      if (id && !headers.has(ECOSYSTEM_HEADER)) headers.set(ECOSYSTEM_HEADER, id)
      return authFetch(input, { ...init, headers })
    }
    const api = typed(fetcher)
    return {
      /** The typed API (`api.chat.conversations.get()` → `{ data, error, status }`). Requests carry the access token and refresh it transparently. */
      api,
      /**
       * `fetch` with the same bearer token, ecosystem and refresh handling, for calls the typed API
       * does not model. A string starting with `/` is a path under `baseUrl`.
       */
      fetch: ((input, init) => fetcher(typeof input === 'string' && input.startsWith('/') ? base + input : input, init)) as FetchLike,
      /**
       * Uploads a file: SHA-256 (streamed) → presign → PUT straight to the object store → complete, with
       * `onProgress` and `signal`. Resolves `{ data: { attachment, deduplicated }, error: null }` or `{ data: null, error: EcobaseError }`.
       */
      upload: (file: Blob & { name?: string }, uploadOptions?: UploadOptions) => upload({ api, storeFetch: baseFetch }, file, uploadOptions),
      /** Chat turns as async iterators of typed events: `chat.send(conversationId, { message }, { signal })`, `chat.regenerate(…)`. */
      chat: chatClient(api),
      /** The site feed's live stream: `feed.stream({ signal, lastEventId })` yields `item` and `ping` events. */
      feed: feedClient(api),
      /**
       * Changes to lists, live: `realtime.subscribe(['data/documents', 'notifications'], { signal, since })`
       * yields typed `change` (and `reset`) events, reconnecting and resuming by cursor on its own.
       */
      realtime: realtimeClient(api, session),
    }
  }
  const main = scoped(() => (typeof ecosystem === 'function' ? ecosystem() : ecosystem))
  const api = main.api

  /** Keeps the tokens of a successful sign-in; the Eden response is returned as it is. */
  const keep = <R extends { data: { token: string; refreshToken: string } | null }>(res: R): R => {
    if (res.data) session.set({ token: res.data.token, refreshToken: cookie ? null : res.data.refreshToken }, true)
    return res
  }

  return {
    ...main,
    /** The same client acting in another ecosystem (id or rdid), for the calls made through what it returns. */
    in: (other: string) => scoped(() => other),
    /** The ecosystem requests act in (see the `ecosystem` option); null for none. */
    setEcosystem: (id: string | null): void => {
      ecosystem = id
    },

    /** Signs in; on success the tokens are kept (and `onTokens` called). */
    login: async (body: AuthLogin) => keep(await plain.auth.login.post(body, cookie ? withCookie : undefined)),
    /** Creates an account and signs in; on success the tokens are kept. */
    register: async (body: AuthRegister) => keep(await plain.auth.register.post(body, cookie ? withCookie : undefined)),
    /**
     * Signs out: forgets the tokens, and revokes this session on the server (with `everywhere`,
     * every session of the account; a customer session has no account, so only it is revoked).
     * The tokens are forgotten even when the server cannot be reached; resolves whether the
     * server confirmed the revocation.
     */
    async logout({ everywhere = false }: { everywhere?: boolean } = {}): Promise<boolean> {
      if (everywhere && session.accessToken && !isCustomerToken(session.accessToken)) {
        // Needs the bearer token, so the tokens are forgotten after the call, not before.
        const res = await api.auth['revoke-all'].post()
        if (session.get()) session.set(null)
        return res.status === 204
      }
      const { refreshToken, accessToken } = session
      if (session.get()) session.set(null)
      if (cookie && !refreshToken) return (await plain.auth.revoke.post({}, withCookie)).status === 204
      if (!refreshToken) return false
      const res =
        accessToken && isCustomerToken(accessToken) ? await plain.customer.revoke.post({ refreshToken }) : await plain.auth.revoke.post({ refreshToken })
      return res.status === 204
    },
    /** Rotates the tokens now (shared with any refresh already under way); false if it could not. */
    refresh: (): Promise<boolean> => session.refresh(),

    /** The tokens held, or null when signed out. */
    getTokens: (): Tokens | null => session.get(),
    /** Replaces the tokens (e.g. after signing in elsewhere, or with an API token); null signs out locally. */
    setTokens: (tokens: Tokens | null): void => session.set(tokens),
  }
}

export type EcobaseClient = ReturnType<typeof createClient>
