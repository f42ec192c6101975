import { Elysia } from 'elysia'
import { dirname, join } from 'node:path'
import swaggerUi from 'swagger-ui-dist/package.json'
import { lazyWebAsset, serveWebAsset, webAsset } from '../web-assets'

/**
 * The human API reference at /openapi: Swagger UI, served from the installed swagger-ui-dist
 * package (no CDN, so it works offline and behind a firewall). Chosen over Scalar because its
 * npm package is one folder with no dependencies (12 MB) where Scalar's pulls about 300 MB for
 * one script. Asset URLs carry the package version, so they are cached for a year; each is
 * compressed once, on first use (web-assets.ts).
 */
const ASSET_DIR = dirname(require.resolve('swagger-ui-dist/package.json'))
const ASSET_PATH = `openapi/assets/${swaggerUi.version}`
const fileAsset = (path: string) =>
  lazyWebAsset(async () => {
    const file = Bun.file(path)
    return webAsset(await file.bytes(), file.type)
  })
const ASSETS = new Map(['swagger-ui-bundle.js', 'swagger-ui.css'].map((name) => [name, fileAsset(join(ASSET_DIR, name))]))
const YEAR = 'public, max-age=31536000, immutable'
/** The service's icon (a leaf) at 16, 32 and 48 px, for the console, this page and any browser asking for /favicon.ico. */
const FAVICON = lazyWebAsset(async () => webAsset(await Bun.file(join(import.meta.dir, 'favicon.ico')).bytes(), 'image/x-icon'))

export function docsPage(title: string, specPath: string) {
  // Compressed at its first request too: at boot the compressors' first use took about 3 ms of every start.
  const html = lazyWebAsset(() => webAsset(page(title, specPath), 'text/html; charset=utf-8'))
  return new Elysia({ name: 'openapi-page' })
    .get('/openapi', async ({ request }) => serveWebAsset(request, await html(), 'no-cache'), { detail: { hide: true } })
    .get(
      '/openapi/assets/:version/:file',
      async ({ params, request, status }) => {
        const asset = params.version === swaggerUi.version ? ASSETS.get(params.file) : undefined
        if (!asset) return status(404, { error: { code: 'not_found', message: 'No such asset' } })
        return serveWebAsset(request, await asset(), YEAR)
      },
      { detail: { hide: true } },
    )
    .get('/favicon.ico', async ({ request }) => serveWebAsset(request, await FAVICON(), 'public, max-age=86400'), { detail: { hide: true } })
}

function page(title: string, specPath: string): string {
  const escaped = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  // Relative URLs: the page works under a path prefix (a proxy serving the API at /api/) too.
  const spec = JSON.stringify(specPath.replace(/^\//, ''))
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escaped}</title>
  <link rel="icon" href="favicon.ico">
  <link rel="stylesheet" href="${ASSET_PATH}/swagger-ui.css">
  <style>body { margin: 0 }</style>
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${ASSET_PATH}/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${spec}, dom_id: '#swagger-ui', deepLinking: true, tryItOutEnabled: false, persistAuthorization: false })
  </script>
</body>
</html>
`
}
