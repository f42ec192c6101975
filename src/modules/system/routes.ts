import { Elysia, t } from 'elysia'
import type { SystemService } from './service'

const Health = t.Object({
  status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
  database: t.Union([t.Literal('ok'), t.Literal('down')]),
}, { title: 'SystemHealth' })
const Version = t.Object({
  name: t.String(),
  version: t.String({ description: 'Version from package.json' }),
  commit: t.Nullable(t.String({ description: 'Git commit of the build, when known (GIT_COMMIT or the checkout)' })),
  runtime: t.String({ description: 'e.g. "bun 1.4.5"' }),
  database: t.Union([t.Literal('pglite'), t.Literal('postgres')], { description: 'pglite = embedded default' }),
  vector: t.Boolean({ description: 'pgvector available (HNSW); false = exact-scan fallback' }),
}, { title: 'SystemVersion' })

export function systemRoutes(system: SystemService) {
  return new Elysia({ name: 'system' })
    .get(
      '/health',
      async ({ status }) => {
        const health = await system.health()
        return health.status === 'ok' ? health : status(503, health)
      },
      {
        response: { 200: Health, 503: Health },
        detail: { tags: ['public'], operationId: 'health', summary: 'Liveness probe with a database check (503 when the database is down)' },
      },
    )
    .get('/site/version', () => system.version(), {
      response: { 200: Version },
      detail: { tags: ['site'], operationId: 'siteVersion', summary: 'Build and version information' },
    })
}
