import { Elysia } from 'elysia'
import { join } from 'node:path'
import { CONSOLE_BUILD_DIR, consoleBuild, type ConsoleManifest } from './assets'
import { consoleError } from './errors'

/**
 * The web console at /console: one HTML page and its content-hashed assets (cached a year),
 * built once (see assets.ts). Every call the page makes goes through the typed client.
 */
export function consoleRoutes() {
  let build: Promise<ConsoleManifest> | null = null
  const manifest = () => (build ??= consoleBuild().catch((err) => {
    build = null
    throw err
  }))
  return new Elysia({ name: 'console' })
    .get('/console', async ({ set }) => {
      set.headers['content-type'] = 'text/html; charset=utf-8'
      set.headers['cache-control'] = 'no-cache'
      set.headers['content-security-policy'] = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
      return page(await manifest())
    }, { detail: { hide: true } })
    .get('/console/assets/:file', async ({ params, set }) => {
      const { files } = await manifest()
      if (!files.includes(params.file)) throw consoleError(404, 'not_found', 'No such console asset')
      set.headers['cache-control'] = 'public, max-age=31536000, immutable'
      return Bun.file(join(CONSOLE_BUILD_DIR, params.file))
    }, { detail: { hide: true } })
}

function page(manifest: ConsoleManifest): string {
  const styles = manifest.styles.map((s) => `<link rel="stylesheet" href="/console/assets/${s}">`).join('\n  ')
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Ecobase Console</title>
  ${styles}
</head>
<body>
  <div id="app"></div>
  <noscript>The console needs JavaScript.</noscript>
  <script type="module" src="/console/assets/${manifest.script}"></script>
</body>
</html>
`
}
