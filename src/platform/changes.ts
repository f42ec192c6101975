import { t } from 'elysia'
import type { Static } from '@sinclair/typebox'
import type { Db } from './db'
import { defineEvent, type EventBus, type EventDefinition } from './events'
import type { ColumnKind } from './crud/query'
import type { Tenant, TenantLevel } from './tenancy'

/**
 * Who a changed row is shown to, as the list route of its topic decides (decided once, when the row
 * is written, so a realtime fan-out needs no query per subscriber): `own` — its customer, and the
 * ecosystem's admins and owners; `self` — its customer only; `shared` — everyone in the ecosystem;
 * `member` — the ecosystem's team members; `admin` — its admins and owners.
 */
export const Audience = t.Union([t.Literal('own'), t.Literal('self'), t.Literal('shared'), t.Literal('member'), t.Literal('admin')])
export type Audience = Static<typeof Audience>

/** One row of a realtime topic as its writing transaction changed it. */
export const RowChange = t.Object({
  op: t.Union([t.Literal('insert'), t.Literal('update'), t.Literal('delete')]),
  id: t.String(),
  /** The customer whose row it is (null for a row no customer owns, e.g. one an admin wrote to a contract table). */
  customerId: t.Union([t.String(), t.Null()]),
  audience: Audience,
  /** The finer topic the row also belongs to (a reply's thread: `community/replies:<threadId>`). */
  key: t.Optional(t.String()),
  /** The row exactly as the topic's list route returns it; absent on delete. */
  record: t.Optional(t.Record(t.String(), t.Unknown())),
})
export type RowChange = Static<typeof RowChange>

/**
 * The event an area emits, in the writing transaction, for every write to rows a realtime topic
 * covers (`data.rows.changed`): the realtime outbox records each change with that transaction.
 */
export function rowsChanged<const Area extends string>(area: Area) {
  return defineEvent(`${area}.rows.changed`, {
    description: `Rows of a ${area} realtime topic were inserted, updated or deleted (the realtime outbox records them in the same transaction).`,
    payload: t.Object({ topic: t.String(), changes: t.Array(RowChange) }),
  })
}

/** Announces changed rows of `topic` in the writing transaction; an empty list announces nothing. */
export type ChangeSink = (tx: Db, ecosystemId: string, topic: string, changes: RowChange[]) => Promise<void>

export function changeSink(bus: Pick<EventBus, 'emit'>, event: ReturnType<typeof rowsChanged>): ChangeSink {
  return async (tx, ecosystemId, topic, changes) => {
    if (changes.length) await bus.emit(tx, event, ecosystemId, { topic, changes })
  }
}

/** True for the `<area>.rows.changed` events (the realtime outbox subscribes to every one). */
export const isRowsChanged = (event: EventDefinition) => event.name.endsWith('.rows.changed')

/** The rows of a customer-facing list everyone in its audience may see, for a change's `audience`. */
export function visibleTo(audience: Audience, reader: { customerId: string; admin: boolean; member: boolean }, owner: string | null): boolean {
  switch (audience) {
    case 'shared':
      return true
    case 'own':
      return reader.admin || owner === reader.customerId
    case 'self':
      return owner === reader.customerId
    case 'member':
      return reader.member
    case 'admin':
      return reader.admin
  }
}

/**
 * A realtime topic a module offers: the path of its list route (`data/documents`), or a family of
 * them ending in `/*` (`contract/*`). `level` is the list route's tenancy level; `authorize` runs
 * once when a stream subscribes (a contract table must exist and be readable), throwing the list
 * route's error when it would refuse.
 */
export interface TopicDefinition {
  topic: string
  description: string
  level: TenantLevel
  /** The record field a `:<value>` suffix narrows the topic by (a reply's `threadId`). */
  keyedBy?: string
  authorize?(tenant: Tenant, topic: string): Promise<void>
  /** The columns a subscription may filter on (`<topic>?<filters>`), as the list route lets the caller filter; absent: no filters. */
  filterable?(tenant: Tenant, topic: string): Readonly<Record<string, ColumnKind>> | Promise<Readonly<Record<string, ColumnKind>>>
}
