import type { TSchema } from '@sinclair/typebox'
import type { ModuleDefinition, Subscription } from '../src/modules/module'
import { emitterOf, type EventDefinition } from '../src/platform/events'

/** A payload schema as a TypeScript-like type: `{ id: string; customerId: string | null }`. */
function typeText(schema: TSchema): string {
  // Elysia's t.Integer is "an integer, or a string of format integer" (a query value): an integer here.
  if (schema.anyOf)
    return (schema.anyOf as TSchema[])
      .filter((s) => s.format !== 'integer')
      .map(typeText)
      .join(' | ')
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  switch (schema.type) {
    case 'object': {
      if (!schema.properties) return `Record<string, ${typeText(Object.values(schema.patternProperties as Record<string, TSchema>)[0]!)}>`
      const required = new Set<string>(schema.required ?? [])
      const fields = Object.entries(schema.properties as Record<string, TSchema>).map(
        ([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${typeText(field)}`,
      )
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

const cell = (text: string) => text.replaceAll('|', '\\|')

/** Whether a subscription takes an event. */
const takes = (subscription: Subscription, event: EventDefinition) =>
  'each' in subscription.event ? subscription.event.each(event) : subscription.event.name === event.name

/**
 * docs/events.md: every domain event with its emitter, payload, webhook type and subscribers, and
 * every audit action (`npm run openapi` writes it; a test fails on drift).
 */
export function renderEvents(modules: readonly ModuleDefinition[]): string {
  const events = modules.flatMap((m) => m.events ?? [])
  const subscriptions = modules.flatMap((m) => (m.subscriptions ?? []).map((s) => ({ module: m.name, subscription: s as Subscription })))
  const rows = events.map(
    (e) => `| \`${e.name}\` | ${emitterOf(e)} | ${e.webhook ? `\`${e.webhook}\`` : '—'} | \`${cell(typeText(e.payload))}\` | ${cell(e.description)} |`,
  )
  const subscribers = events.flatMap((e) =>
    subscriptions
      .filter(({ subscription }) => takes(subscription, e))
      .map(
        ({ module, subscription }) =>
          `| \`${e.name}\` | ${module} | in the emitter's transaction | ${cell(subscription.does)}${'each' in subscription.event ? ` (${cell(subscription.event.which)})` : ''} |`,
      ),
  )
  const actions = modules.flatMap((m) => [
    ...(m.audit ?? []).map((a) => `| \`${a.name}\` | ${m.name} | ${cell(a.description)} |`),
    ...(m.events ?? []).filter((e) => e.audit && !e.audit.action).map((e) => `| \`${e.name}\` | ${m.name} | ${cell(e.description)} (an audited event) |`),
  ])
  return `<!-- Generated from the modules' events.ts and subscriptions.ts by \`npm run openapi\` (scripts/events-doc.ts). Do not edit. -->
# Domain events

Areas react to each other through one event bus (\`src/platform/events.ts\`). An event is named
\`<area>.<noun>.<verb>\`, declared with its payload schema in the emitting module's \`events.ts\` and
listed in that module's manifest (\`index.ts\`). Every event also carries the \`ecosystemId\` it happened in.

A module reacts to events through its \`subscriptions.ts\`, listed in its manifest. Every handler runs
inside the emitter's transaction, before \`emit\` returns: what it writes (a feed item, a notification,
a queued webhook delivery) commits or rolls back with the change. Work that must wait for the commit
(forgetting a cached row on every replica, counting a meter) is the emitter's own, registered on its
transaction with \`afterCommit\` (\`src/platform/db/commit.ts\`); the bus has no after-commit phase.

Events with a webhook type are delivered to subscribed endpoints under that type, with the payload as
\`data\` (the types webhooks published before the bus, kept so receivers see no change).

| Event | Emitter | Webhook type | Payload | Meaning |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

## Subscribers

| Event | Subscriber | Phase | What it does |
| --- | --- | --- | --- |
${subscribers.join('\n')}

## Audit actions

What the audit log (\`GET /audit/events\`) records, each declared by its area beside its events and
named \`<area>.<noun>.<verb>\` like them. One \`emit\` of an audited event writes the audit row too:
as the action of its name, or as one of its area's declared actions when the event stands for
several facts (\`auth.password.changed\` is recorded as \`auth.password.changed\` or
\`auth.password.reset\`; \`auth.security.changed\` as \`auth.mfa.enrolled\`, \`auth.mfa.failed\`, …).

| Action | Area | Meaning |
| --- | --- | --- |
${actions.join('\n')}
`
}
