import type { TLiteral } from '@sinclair/typebox'
import { t } from 'elysia'
import { codesDescription } from '../../platform/errors'
import { NOT_READY, type NotReadyCode } from './errors'
import { Int } from '../../platform/numbers'

export const Health = t.Object(
  {
    status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
    database: t.Union([t.Literal('ok'), t.Literal('down'), t.Literal('stalled')]),
    error: t.Optional(
      t.Object(
        {
          code: t.Union([t.Literal('database_unavailable'), t.Literal('database_stalled')]),
          message: t.String(),
        },
        { description: 'Present when degraded, in the shape of every error answer' },
      ),
    ),
  },
  { title: 'SystemHealth', examples: [{ status: 'ok', database: 'ok' }] },
)
export const Liveness = t.Object({ status: t.Literal('ok') }, { title: 'SystemLiveness', examples: [{ status: 'ok' }] })

const notReadyCodes = Object.keys(NOT_READY) as NotReadyCode[]

export const Readiness = t.Object(
  {
    status: t.Union([t.Literal('ready'), t.Literal('not_ready')]),
    checks: t.Object({
      database: t.Union([t.Literal('ok'), t.Literal('down'), t.Literal('stalled')], { description: 'A statement answers within DB_STALL_SECONDS' }),
      migrations: t.Union([t.Literal('ok'), t.Literal('pending'), t.Literal('unknown')], {
        description: 'Every migration this version ships is applied (`unknown`: the database did not answer)',
      }),
      queue: t.Union([t.Literal('ok'), t.Literal('stopped')], { description: 'The job queue is started (with JOBS=off too: jobs are enqueued)' }),
      shutdown: t.Union([t.Literal('running'), t.Literal('draining')], { description: '`draining` from SIGTERM on' }),
    }),
    error: t.Optional(
      t.Object(
        {
          // Typed as the union of the codes: TypeBox types a union built from a list as `never`.
          code: t.Union(
            notReadyCodes.map((code) => t.Literal(code)),
            { description: codesDescription(NOT_READY, notReadyCodes) },
          ) as unknown as TLiteral<NotReadyCode>,
          message: t.String(),
        },
        { description: 'Present when not ready, in the shape of every error answer: the first check that failed' },
      ),
    ),
  },
  {
    title: 'SystemReadiness',
    examples: [{ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', shutdown: 'running' } }],
  },
)

export const Version = t.Object(
  {
    name: t.String(),
    version: t.String({ description: 'Version from package.json' }),
    commit: t.Nullable(t.String({ description: 'Git commit of the build, when known (GIT_COMMIT or the checkout)' })),
    runtime: t.String({ description: 'e.g. "bun 1.4.5"' }),
    database: t.Union([t.Literal('pglite'), t.Literal('postgres')], { description: 'pglite = embedded default' }),
    vector: t.Boolean({ description: 'pgvector available (HNSW); false = exact-scan fallback' }),
  },
  { title: 'SystemVersion', examples: [{ name: 'ecobase', version: '0.0.0', commit: '3c7283e', runtime: 'bun 1.4.5', database: 'postgres', vector: true }] },
)

export const Backup = t.Object(
  {
    id: t.String(),
    status: t.Union([t.Literal('running'), t.Literal('complete'), t.Literal('failed'), t.Literal('missing')], {
      description: '`missing`: it completed, and its archive is gone since',
    }),
    sizeBytes: t.Union([Int(), t.Null()]),
    encrypted: t.Boolean({ description: 'Encrypted with BACKUP_ENCRYPTION_KEY: `verify` and `restore` need the key' }),
    error: t.Union([t.String(), t.Null()], { description: 'Why it failed' }),
    createdBy: t.Union([t.String(), t.Null()], {
      description: 'The platform admin who asked for it (null: the schedule, or an archive found in DATA_DIR/backups)',
    }),
    createdAt: t.String(),
    completedAt: t.Union([t.String(), t.Null()]),
    restoredAt: t.Union([t.String(), t.Null()], { description: 'This instance was restored from this backup (`npx ecobase restore`), at this time' }),
  },
  {
    title: 'SystemBackup',
    examples: [
      {
        id: 'a7b6c5d4-e3f2-4a1b-9c0d-8e7f6a5b4c3d',
        status: 'running',
        sizeBytes: null,
        encrypted: true,
        error: null,
        createdBy: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
        createdAt: '2026-11-26T09:00:00.000Z',
        completedAt: null,
        restoredAt: null,
      },
    ],
  },
)
