import { Elysia } from 'elysia'
import { dirname, join } from 'node:path'
import swaggerUi from 'swagger-ui-dist/package.json'

/**
 * The human API reference at /openapi: Swagger UI, served from the installed swagger-ui-dist
 * package (no CDN, so it works offline and behind a firewall). Chosen over Scalar because its
 * npm package is one folder with no dependencies (12 MB) where Scalar's pulls about 300 MB for
 * one script. Asset URLs carry the package version, so they are cached for a year.
 */
const ASSET_DIR = dirname(require.resolve('swagger-ui-dist/package.json'))
const ASSETS = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png'])
const ASSET_PATH = `openapi/assets/${swaggerUi.version}`

export function docsPage(title: string, specPath: string) {
  const html = page(title, specPath)
  return new Elysia({ name: 'openapi-page' })
    .get(
      '/openapi',
      ({ set }) => {
        set.headers['content-type'] = 'text/html; charset=utf-8'
        set.headers['cache-control'] = 'no-cache'
        return html
      },
      { detail: { hide: true } },
    )
    .get(
      '/openapi/assets/:version/:file',
      ({ params, set, status }) => {
        if (params.version !== swaggerUi.version || !ASSETS.has(params.file)) return status(404, { error: { code: 'not_found', message: 'No such asset' } })
        set.headers['cache-control'] = 'public, max-age=31536000, immutable'
        return Bun.file(join(ASSET_DIR, params.file))
      },
      { detail: { hide: true } },
    )
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
  <link rel="icon" href="${ASSET_PATH}/favicon-32x32.png">
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
