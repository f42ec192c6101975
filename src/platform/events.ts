import type { Static, TSchema } from '@sinclair/typebox'
import { afterCommit } from './db/commit'
import type { Db } from './db'
import type { Logger } from './logger'

/**
 * A domain event: `<area>.<noun>.<verb>` (`storage.attachment.ready`), emitted by the module `<area>`
 * and declared in its `events.ts` with the TypeBox schema of its payload. `webhook` is the type
 * under which outbound webhooks deliver it, when they do (the names webhooks published before the
 * bus, kept so receivers see no change); the payload is then exactly the webhook's `data`.
 */
export interface EventDefinition<Name extends string = string, Payload extends TSchema = TSchema, Scope extends EventScope = EventScope> {
  name: Name
  description: string
  payload: Payload
  webhook?: string
  /** `ecosystem` (the default): it happened in one, named in its envelope. `account`: in none (an account's password, say). */
  scope: Scope
}

export type EventScope = 'ecosystem' | 'account'

export function defineEvent<const Name extends `${string}.${string}.${string}`, Payload extends TSchema, const Scope extends EventScope = 'ecosystem'>(
  name: Name,
  definition: { description: string; payload: Payload; webhook?: string; scope?: Scope },
): EventDefinition<Name, Payload, Scope> {
  return { name, ...definition, scope: definition.scope ?? ('ecosystem' as Scope) }
}

/** The ecosystem an event happened in: a string for ecosystem events, null for account events. */
type EcosystemOf<E extends EventDefinition> = E['scope'] extends 'account' ? null : string

/** The module that emits an event: the first part of its name. */
export const emitterOf = (event: EventDefinition) => event.name.split('.')[0]!

/** What every event carries beside its payload: the ecosystem it happened in (null for account events). */
export interface EventEnvelope<Payload, Ecosystem extends string | null = string> {
  ecosystemId: Ecosystem
  payload: Payload
}

type InTransaction = (tx: Db, event: EventEnvelope<unknown, string | null>, definition: EventDefinition) => Promise<void>
type AfterCommit = (event: EventEnvelope<unknown, string | null>, definition: EventDefinition) => void

/**
 * The one way areas react to each other. `on` handlers run inside the emitter's transaction, in the
 * order they subscribed, before `emit` returns: for durable work (a feed item, a queued webhook
 * delivery, a notification) that must commit or roll back with the change. `afterCommit` handlers
 * run in memory once that transaction has committed (in-process fan-out, such as open streams); one
 * that throws is logged and does not reach the emitter.
 */
export class EventBus {
  private readonly known = new Map<string, EventDefinition>()
  private readonly inTransaction = new Map<string, InTransaction[]>()
  private readonly committed = new Map<string, AfterCommit[]>()

  constructor(private readonly logger: Pick<Logger, 'error'>) {}

  /** Makes events known (each module's manifest declares its own); emitting or subscribing to an undeclared one throws. */
  declare(events: readonly EventDefinition[]): void {
    for (const event of events) {
      if (this.known.has(event.name)) throw new Error(`event ${event.name} is declared twice`)
      this.known.set(event.name, event)
    }
  }

  on<E extends EventDefinition>(event: E, handler: (tx: Db, event: EventEnvelope<Static<E['payload']>, EcosystemOf<E>>) => Promise<void>): void {
    this.list(this.inTransaction, event).push(handler as unknown as InTransaction)
  }

  /** One handler for every declared event that `select` picks (outbound webhooks take every event with a webhook type). */
  onEach(select: (event: EventDefinition) => boolean, handler: InTransaction): void {
    for (const event of this.known.values()) if (select(event)) this.list(this.inTransaction, event).push(handler)
  }

  afterCommit<E extends EventDefinition>(event: E, handler: (event: EventEnvelope<Static<E['payload']>, EcosystemOf<E>>) => void): void {
    this.list(this.committed, event).push(handler as unknown as AfterCommit)
  }

  async emit<E extends EventDefinition>(tx: Db, event: E, ecosystemId: EcosystemOf<E>, payload: Static<E['payload']>): Promise<void> {
    const definition = this.definition(event)
    const envelope = { ecosystemId, payload }
    for (const handler of this.inTransaction.get(definition.name) ?? []) await handler(tx, envelope, definition)
    const later = this.committed.get(definition.name)
    if (!later?.length) return
    afterCommit(tx, () => {
      for (const handler of later) {
        try {
          handler(envelope, definition)
        } catch (err) {
          this.logger.error('event handler failed', { event: definition.name, error: String(err) })
        }
      }
    })
  }

  private list<H>(handlers: Map<string, H[]>, event: EventDefinition): H[] {
    const name = this.definition(event).name
    const list = handlers.get(name) ?? []
    handlers.set(name, list)
    return list
  }

  private definition(event: EventDefinition): EventDefinition {
    const known = this.known.get(event.name)
    if (!known) throw new Error(`event ${event.name} is not declared by any module`)
    return known
  }
}
