import { t } from 'elysia'
import { AppError } from './errors'

/** A UUID's text in lower case (any version), for patterns that embed one (with the `i` flag for either case). */
export const UUID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'
const UUID = new RegExp(`^${UUID_PATTERN}$`, 'i')

/** Whether `text` is a UUID, so it can be compared with a `uuid` column (anything else makes PostgreSQL fail the query). */
export const isUuid = (text: string): boolean => UUID.test(text)

/** The `{id}` path parameter of a route: a UUID (anything else is 400 before the route runs). */
export const IdParam = t.Object({ id: t.String({ format: 'uuid' }) })

/** A date-time query parameter (ISO 8601): 400 `validation_failed` naming it when it is no real time (e.g. month 13). */
export function queryInstant(name: string, value: string): Date {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new AppError(400, 'validation_failed', `query.${name}: not an ISO 8601 date-time`)
  return date
}
