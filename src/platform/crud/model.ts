import { t } from 'elysia'

/** How derived rows show their times: ISO 8601 strings in UTC. */
export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601, UTC' })
export const NullableTimestamp = t.Union([Timestamp, t.Null()])

/** A time column's value as a `NullableTimestamp` answers it. */
export const isoOrNull = (d: Date | null | undefined): string | null => d?.toISOString() ?? null
