import type { Static, TSchema } from '@sinclair/typebox'
import type { Principal } from './auth'
import type { Db } from './db'
import type { RequestInfo } from './http'
import type { Tenant } from './tenancy'

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
  /** Audited: the audit module records every emit as the audit action of the event's name, with who emitted it. */
  audit?: EventAudit
}

/** How an audited event is recorded: what it is about (the audit row's target), and what else the row keeps. */
export interface EventAudit<Payload = never> {
  target: (payload: Payload) => { type: string; id: string | null }
  /** The row's metadata; absent: none. */
  metadata?: (payload: Payload) => Record<string, unknown>
  /**
   * One event for facts audited apart (a password changed or reset; each change to second factors):
   * the action, one its module declares. Absent: the event's name, which is then an audit action.
   */
  action?: (payload: Payload) => string
}

/** An event whose every emit is also an audit row: `emit` then takes who acted. */
export type AuditedEventDefinition<Name extends string = string, Payload extends TSchema = TSchema, Scope extends EventScope = EventScope> = EventDefinition<
  Name,
  Payload,
  Scope
> & { audit: EventAudit }

/** Who caused an audited event: the tenant or principal a route resolved, or an actor spelled out (sign-in, jobs). */
export type EventActor =
  | Tenant
  | Principal
  | { actor: { type: 'user' | 'customer' | 'api_token' | 'system'; id: string | null; userId?: string }; request?: RequestInfo }

export type EventScope = 'ecosystem' | 'account'

export function defineEvent<const Name extends `${string}.${string}.${string}`, Payload extends TSchema, const Scope extends EventScope = 'ecosystem'>(
  name: Name,
  definition: { description: string; payload: Payload; webhook?: string; scope?: Scope },
): EventDefinition<Name, Payload, Scope> {
  return { name, ...definition, scope: definition.scope ?? ('ecosystem' as Scope) }
}

/** An event that is also an audit action (its name): one `emit`, given who acted, writes both. */
export function defineAuditedEvent<const Name extends `${string}.${string}.${string}`, Payload extends TSchema, const Scope extends EventScope = 'ecosystem'>(
  name: Name,
  definition: { description: string; payload: Payload; webhook?: string; scope?: Scope; audit: EventAudit<Static<Payload>> },
): AuditedEventDefinition<Name, Payload, Scope> {
  return { name, ...definition, audit: definition.audit as unknown as EventAudit, scope: definition.scope ?? ('ecosystem' as Scope) }
}

/** The ecosystem an event happened in: a string for ecosystem events, null for account events. */
type EcosystemOf<E extends EventDefinition> = E['scope'] extends 'account' ? null : string

/** The module that emits an event: the first part of its name. */
export const emitterOf = (event: EventDefinition) => event.name.split('.')[0]!

/** What every event carries beside its payload: the ecosystem it happened in (null for account events), and for an audited one who acted. */
export interface EventEnvelope<Payload, Ecosystem extends string | null = string> {
  ecosystemId: Ecosystem
  payload: Payload
  by?: EventActor
}

type InTransaction = (tx: Db, event: EventEnvelope<unknown, string | null>, definition: EventDefinition) => Promise<void>

/**
 * The one way areas react to each other. Handlers run inside the emitter's transaction, in the
 * order they subscribed, before `emit` returns: for durable work (a feed item, a queued webhook
 * delivery, a notification) that must commit or roll back with the change. Work that must wait for
 * the commit (forgetting a cached row, a meter's count) is the emitter's own: it registers it on its
 * transaction with `afterCommit` (platform/db/commit.ts).
 */
export class EventBus {
  private readonly known = new Map<string, EventDefinition>()
  private readonly inTransaction = new Map<string, InTransaction[]>()

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

  /** Runs the event's handlers in `tx`; an audited event takes who acted (the audit module's handler records it). */
  async emit<E extends EventDefinition>(
    tx: Db,
    event: E,
    ecosystemId: EcosystemOf<E>,
    payload: Static<E['payload']>,
    ...by: E extends { audit: EventAudit } ? [by: EventActor] : []
  ): Promise<void> {
    const definition = this.definition(event)
    const envelope = { ecosystemId, payload, by: (by as EventActor[])[0] }
    for (const handler of this.inTransaction.get(definition.name) ?? []) await handler(tx, envelope, definition)
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

/**
 * An audit action: `<area>.<noun>.<verb>`, a fact the audit log (GET /audit/events) records with
 * who did it, declared by its module beside its events (docs/events.md lists them). The names are
 * part of the API: filters match them.
 */
export interface AuditActionDefinition<Name extends string = string> {
  name: Name
  description: string
}

/** A module's audit actions, each named `<area>.…`: a name of another area does not compile. */
export function defineAuditActions<const Area extends string, const Actions extends Record<string, string>>(
  _area: Area,
  actions: Actions & Record<Exclude<keyof Actions, `${Area}.${string}.${string}`>, never>,
): readonly AuditActionDefinition<keyof Actions & string>[] {
  return Object.entries(actions).map(([name, description]) => ({ name: name as keyof Actions & string, description: description as string }))
}
