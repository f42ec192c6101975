import type { TSchema } from '@sinclair/typebox'
import { emitterOf, type EventDefinition } from '../src/platform/events'

/** A payload schema as a TypeScript-like type: `{ id: string; customerId: string | null }`. */
function typeText(schema: TSchema): string {
  // Elysia's t.Integer is "an integer, or a string of format integer" (a query value): an integer here.
  if (schema.anyOf) return (schema.anyOf as TSchema[]).filter((s) => s.format !== 'integer').map(typeText).join(' | ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  switch (schema.type) {
    case 'object': {
      if (!schema.properties) return `Record<string, ${typeText(Object.values(schema.patternProperties as Record<string, TSchema>)[0]!)}>`
      const required = new Set<string>(schema.required ?? [])
      const fields = Object.entries(schema.properties as Record<string, TSchema>).map(([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(field)}`)
      return `{ ${fields.join('; ')} }`
    }
    case 'array':
      return `${typeText(schema.items as TSchema)}[]`
    case 'integer':
      return 'number'
    default:
      return schema.type === undefined ? 'unknown' : String(schema.type)
  }
}

/** docs/events.md: every domain event with its emitter, payload and webhook type (`npm run openapi` writes it; a test fails on drift). */
export function renderEvents(events: readonly EventDefinition[]): string {
  const rows = events.map((e) => `| \`${e.name}\` | ${emitterOf(e)} | ${e.webhook ? `\`${e.webhook}\`` : '—'} | \`${typeText(e.payload).replaceAll('|', '\\|')}\` | ${e.description.replaceAll('|', '\\|')} |`)
  return `<!-- Generated from the modules' events.ts by \`npm run openapi\` (scripts/events-doc.ts). Do not edit. -->
# Domain events

Areas react to each other through one event bus (\`src/platform/events.ts\`). An event is named
\`<area>.<noun>.<verb>\`, declared with its payload schema in the emitting module's \`events.ts\` and
listed in that module's manifest (\`index.ts\`). Every event also carries the \`ecosystemId\` it happened in.

- \`bus.on(event, handler)\` runs the handler inside the emitter's transaction, before \`emit\` returns:
  what it writes (a feed item, a notification, a queued webhook delivery) commits or rolls back with
  the change.
- \`bus.afterCommit(event, handler)\` runs it in memory once that transaction has committed (in-process
  fan-out such as open streams); it never runs for a change that rolled back.

Events with a webhook type are delivered to subscribed endpoints under that type, with the payload as
\`data\` (the types webhooks published before the bus, kept so receivers see no change).

| Event | Emitter | Webhook type | Payload | Meaning |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`
}
