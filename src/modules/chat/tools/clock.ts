import { Type as T } from '@sinclair/typebox'
import { defineTool } from './registry'

/** Offline: the current date and time, in UTC or a named IANA time zone. */
export const currentTime = defineTool({
  name: 'current_time',
  description: 'The current date and time. Optionally in an IANA time zone such as "Europe/Paris".',
  parameters: T.Object({ timezone: T.Optional(T.String({ minLength: 1, maxLength: 64, description: 'IANA time zone' })) }),
  async run(args, context) {
    const now = context.now()
    const timezone = args.timezone ?? 'UTC'
    let local: string
    try {
      local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', timeZone: timezone }).format(now)
    } catch {
      throw new Error(`Unknown time zone "${timezone}"`)
    }
    return { now: now.toISOString(), timezone, local }
  },
})
