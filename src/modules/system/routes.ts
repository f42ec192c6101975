import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { METRICS_CONTENT_TYPE } from '../../platform/metrics'
import { MEDIA_TYPE } from '../../platform/openapi'
import { pageParams, PageQuery, paged } from '../../platform/paging'
import { IdParam } from '../../platform/params'
import type { Backups } from './backups'
import { errors } from './errors'
import { Backup, Health, Liveness, Readiness, Version } from './model'
import type { SystemService } from './service'

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
        detail: {
          tags: ['public'],
          operationId: 'health',
          summary: 'Liveness probe with a database check (503 when the database is down)',
          description:
            'Public, for load balancers and orchestrators: `{ status: "ok", database: "ok" }` while a `select 1` answers. Else 503 with `status: "degraded"` and `error.code`: `database_unavailable` (`database: "down"`) when the statement fails, or `database_stalled` (`database: "stalled"`, answered at once) while a database statement has waited longer than DB_STALL_SECONDS; the server log then names what holds the connection. Not written to the request log at info level.',
        },
      },
    )
    .get('/health/live', () => ({ status: 'ok' as const }), {
      response: { 200: Liveness },
      detail: {
        tags: ['public'],
        operationId: 'healthLive',
        summary: 'Liveness: the process answers',
        description:
          'Public, for an orchestrator’s liveness probe (restart the process when it fails): `{ status: "ok" }` whenever the process answers HTTP. Touches no database, so a database outage does not get healthy replicas restarted; that is what `GET /health/ready` is for. Not written to the request log at info level.',
      },
    })
    .get(
      '/health/ready',
      async ({ status }) => {
        const readiness = await system.readiness()
        return readiness.status === 'ready' ? readiness : status(503, readiness)
      },
      {
        response: { 200: Readiness, 503: Readiness },
        detail: {
          tags: ['public'],
          operationId: 'healthReady',
          summary: 'Readiness: send this replica traffic (503 when not)',
          description:
            'Public, for a load balancer’s or orchestrator’s readiness probe: 200 `{ status: "ready", checks }` while the server is not draining, the database answers within DB_STALL_SECONDS, every migration this version ships is applied and the job queue is started. Else 503 `{ status: "not_ready", checks, error: { code, message } }` naming the first check that failed: from SIGTERM on a draining server answers `draining` while it finishes what it has, so the balancer takes it out before it closes. Not written to the request log at info level.',
        },
      },
    )
    .get(
      '/metrics',
      async ({ headers, set }) => {
        const text = await system.metrics(headers.authorization)
        set.headers['content-type'] = METRICS_CONTENT_TYPE
        return text
      },
      {
        response: {
          200: t.String({ description: 'Every metric in Prometheus’s text exposition format (version 0.0.4)', [MEDIA_TYPE]: 'text/plain; version=0.0.4' }),
          ...errors(401, 404),
        },
        detail: {
          tags: ['public'],
          operationId: 'metrics',
          summary: 'Prometheus metrics (with METRICS_TOKEN)',
          description:
            'For Prometheus, off unless METRICS_TOKEN is set: then the scraper sends `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time; 401 otherwise), and without it the route answers 404 like an unknown path. Exposes this replica’s HTTP requests by method, route template and status, and their durations; database statement durations, transactions’ waits for a connection, statements in flight and open transactions; job-queue depth by queue and state, and the oldest ready job’s wait; open realtime streams; webhook delivery attempts and e-mail/SMS sends by outcome; the age of the last complete backup; and the process’s CPU, memory, file descriptors, event-loop lag and heap. The list, with types and labels: docs/operations/observability.md. Not written to the request log at info level.',
        },
      },
    )
    .get('/site/version', () => system.version(), {
      response: { 200: Version },
      detail: {
        tags: ['site'],
        operationId: 'siteVersion',
        summary: 'Build and version information',
        description:
          'Public: the package version, the build commit when known, the runtime, which database runs (`pglite` = the embedded default, `postgres` = DATABASE_URL) and whether pgvector is there (`vector: false` = persona memory recall by exact scan). No credential, no database query.',
      },
    })
}

const ADMINS = 'Platform admins (the `admin` capability).'

/** Backups of a running embedded instance (tag `settings`, with the other instance administration). */
export function backupRoutes(backups: Backups, guards: Guards) {
  return new Elysia({ name: 'system-backups', prefix: '/system/backups', detail: { tags: ['settings'] } })
    .use(guards.auth)
    .post('', async ({ principal, status }) => status(202, await backups.start(principal)), {
      admin: true,
      response: { 202: Backup, ...errors(401, 403, { 409: ['backup_unavailable', 'backup_in_progress'] }) },
      detail: {
        operationId: 'systemBackupStart',
        summary: 'Back up this instance now',
        description: `A queued job writes the same archive as \`npx ecobase backup\` to DATA_DIR/backups (or the bucket), under a temporary name until complete; follow its status in the list. One at a time: while a backup is still running (begun within the hour its job is given), 409 \`backup_in_progress\` naming it, and the schedule skips its tick. Embedded: the database's files as one instant left them (copied to disk first, statements held off only while what changed meanwhile is copied again); with DATABASE_URL: \`pg_dump -Fc\`, when it is on the server's PATH (else 409 \`backup_unavailable\`). Then the generated server key and the local object store, and a manifest of checksums. Encrypted (AES-256-GCM) when BACKUP_ENCRYPTION_KEY is set; otherwise the archive holds the server key in clear. A failure is in the list, the audit log and an e-mail to every platform admin. ${ADMINS}`,
      },
    })
    .get('/settings', async () => backups.settings(), {
      admin: true,
      response: {
        200: t.Object(
          {
            available: t.Boolean({ description: 'The service backs itself up: always embedded; with DATABASE_URL when pg_dump is on the server’s PATH' }),
            schedule: t.Nullable(t.String({ description: 'BACKUP_SCHEDULE, a cron pattern; null: only on request' })),
            keep: t.Integer({ description: 'BACKUP_KEEP: complete backups kept, and failed ones as many' }),
            target: t.Union([t.Literal('local'), t.Literal('s3')], { description: 'BACKUP_TARGET: DATA_DIR/backups, or the object store’s bucket' }),
            encrypted: t.Boolean({ description: 'BACKUP_ENCRYPTION_KEY is set: new archives are encrypted' }),
            lastCompleteAt: t.Nullable(t.String({ description: 'When the newest complete backup finished; null: none yet' })),
            lastCompleteAgeSeconds: t.Nullable(t.Integer({ description: 'How long ago that was, in seconds' })),
          },
          {
            title: 'SystemBackupSettings',
            examples: [
              {
                available: true,
                schedule: '0 3 * * *',
                keep: 7,
                target: 'local',
                encrypted: true,
                lastCompleteAt: '2026-11-26T03:00:41.000Z',
                lastCompleteAgeSeconds: 21600,
              },
            ],
          },
        ),
        ...errors(401, 403),
      },
      detail: {
        operationId: 'systemBackupSettings',
        summary: 'How this instance backs up',
        description: `What the environment set (BACKUP_SCHEDULE, BACKUP_KEEP, BACKUP_TARGET, BACKUP_ENCRYPTION_KEY), whether the service can back itself up at all, and the age of the last complete backup. ${ADMINS}`,
      },
    })
    .get('', ({ query }) => backups.list(pageParams(query)), {
      admin: true,
      query: PageQuery,
      response: { 200: paged(Backup, 'SystemBackupPage'), ...errors(400, 401, 403) },
      detail: {
        operationId: 'systemBackupList',
        summary: 'Backups, newest first',
        description: `With BACKUP_TARGET=local the list is what DATA_DIR/backups holds: a complete backup whose archive is gone says \`missing\`, and an archive no row names is adopted. ${ADMINS}`,
      },
    })
    .get(
      '/:id/download',
      async ({ params, set, redirect }) => {
        const archive = await backups.archive(params.id)
        if ('url' in archive) return redirect(archive.url, 302)
        set.headers['content-type'] = archive.encrypted ? 'application/octet-stream' : 'application/gzip'
        set.headers['content-disposition'] = `attachment; filename="${archive.filename}"`
        return archive.file
      },
      {
        admin: true,
        params: IdParam,
        response: {
          200: t.Any({
            description: 'The archive (`application/octet-stream` when encrypted): check it with `npx ecobase verify`, restore it with `npx ecobase restore`',
            [MEDIA_TYPE]: 'application/gzip',
          }),
          302: t.Void({ description: 'BACKUP_TARGET=s3: `Location` is a download URL of the bucket, valid 5 minutes' }),
          ...errors(400, 401, 403, 404, { 409: ['backup_not_ready'], 410: ['backup_missing'] }),
        },
        detail: {
          operationId: 'systemBackupDownload',
          summary: 'Download a complete backup',
          description: `The archive itself, or with BACKUP_TARGET=s3 a 302 to a download URL of the bucket valid 5 minutes. An archive gone since (deleted or pruned outside the service): 410 \`backup_missing\`, and the backup says \`missing\`. ${ADMINS}`,
        },
      },
    )
    .delete(
      '/:id',
      async ({ principal, params, status }) => {
        await backups.remove(principal, params.id)
        return status(204, undefined)
      },
      {
        admin: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted, with its archive' }), ...errors(400, 401, 403, 404) },
        detail: { operationId: 'systemBackupDelete', summary: 'Delete a backup', description: ADMINS },
      },
    )
}
