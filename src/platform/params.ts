import { t } from 'elysia'

/** The `{id}` path parameter of a route: a UUID (anything else is 400 before the route runs). */
export const IdParam = t.Object({ id: t.String({ format: 'uuid' }) })
