import { t } from 'elysia'
import { AppError } from './errors'

/** The `{id}` path parameter of a route: a UUID (anything else is 400 before the route runs). */
export const IdParam = t.Object({ id: t.String({ format: 'uuid' }) })

/** A date-time query parameter (ISO 8601): 400 `validation_failed` naming it when it is no real time (e.g. month 13). */
export function queryInstant(name: string, value: string): Date {
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new AppError(400, 'validation_failed', `query.${name}: not an ISO 8601 date-time`)
  return date
}
