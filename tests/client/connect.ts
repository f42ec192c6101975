import { createClient, type ClientOptions, type Tokens } from '../../client/index'
import type { Harness } from '../support/harness'

let accounts = 0

/**
 * A client pointed at the harness app in-process. Every request passes through `fetch`, which
 * records `METHOD /path` so tests can count refreshes; `hook` may answer instead of the app.
 */
export function connect(h: Harness, options: Partial<ClientOptions> & { hook?: (req: Request) => Response | undefined } = {}) {
  const { hook, ...rest } = options
  const requests: string[] = []
  const seen: (Tokens | null)[] = []
  const client = createClient({
    baseUrl: 'http://localhost',
    fetch: async (input, init) => {
      const req = new Request(input, init)
      requests.push(`${req.method} ${new URL(req.url).pathname}`)
      return hook?.(req) ?? h.app.handle(req)
    },
    onTokens: (tokens) => {
      seen.push(tokens)
    },
    ...rest,
  })
  return {
    client,
    requests,
    /** Every value onTokens was called with, in order. */
    seen,
    count: (request: string) => requests.filter((r) => r === request).length,
  }
}

export function newAccount() {
  const n = ++accounts
  return { email: `client${n}-${crypto.randomUUID().slice(0, 8)}@example.test`, password: `pass-word-${n}-long`, name: `Client ${n}` }
}

export const ACCESS_TTL_MS = 900_000
export const PAST_EXPIRY_MS = 16 * 60 * 1000
