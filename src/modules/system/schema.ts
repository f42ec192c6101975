import { bigint, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'

export const systemSchema = pgSchema('system')

/** Backups the service made of itself (embedded mode); the archive is DATA_DIR/backups/<id>.tar.gz. */
export const backups = systemSchema.table('backups', {
  id: uuid('id').primaryKey().defaultRandom(),
  status: text('status', { enum: ['running', 'complete', 'failed'] }).notNull().default('running'),
  sizeBytes: bigint('size_bytes', { mode: 'number' }),
  error: text('error'),
  /** The platform admin who asked for it. */
  createdBy: uuid('created_by'),
  createdAt: at('created_at').notNull().defaultNow(),
  completedAt: at('completed_at'),
})
