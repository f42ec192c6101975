import { bigint, boolean, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'

export const systemSchema = pgSchema('system')

/** Backups the service made of itself (or found in DATA_DIR/backups); the archive is DATA_DIR/backups/<id>.tar.gz(.enc), or in the bucket. */
export const backups = systemSchema.table('backups', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** `missing`: it completed, and its archive is gone since. */
  status: text('status', { enum: ['running', 'complete', 'failed', 'missing'] })
    .notNull()
    .default('running'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  /** Encrypted with BACKUP_ENCRYPTION_KEY (the archive is `<id>.tar.gz.enc`). */
  encrypted: boolean('encrypted').notNull().default(false),
  error: text('error'),
  /** The platform admin who asked for it. */
  createdBy: uuid('created_by'),
  createdAt: at('created_at').notNull().defaultNow(),
  completedAt: at('completed_at'),
  /** This instance was restored from this backup (`npx ecobase restore`), at this time. */
  restoredAt: at('restored_at'),
})
