import { Elysia } from 'elysia'
import type { ConsoleService } from './service'

/**
 * The web console at /console: one HTML page and its content-hashed assets (cached a year). Every
 * call the page makes goes through the typed client.
 */
export function consoleRoutes(console: ConsoleService) {
  return new Elysia({ name: 'console' })
    .get(
      '/console',
      async ({ set }) => {
        set.headers['content-type'] = 'text/html; charset=utf-8'
        set.headers['cache-control'] = 'no-cache'
        set.headers['content-security-policy'] = await console.contentPolicy()
        return console.page()
      },
      { detail: { hide: true } },
    )
    .get(
      '/console/assets/:file',
      async ({ params, set }) => {
        const file = await console.asset(params.file)
        set.headers['cache-control'] = 'public, max-age=31536000, immutable'
        return file
      },
      { detail: { hide: true } },
    )
}
