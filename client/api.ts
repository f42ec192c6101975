import type { Treaty } from '@elysiajs/eden'
import type { App } from '../src/app'

/**
 * The typed API: every route of the server, e.g. `api.auth.me.get()` → `{ data, error, status }`.
 * Kept apart from index.ts, which builds it, so the client's parts need not import index.
 */
export type Api = Treaty.Create<App>
