import type { Static, TObject } from '@sinclair/typebox'
import type { AnyElysia } from 'elysia'
import type { Deps } from '../deps'
import type { Principal } from '../platform/auth'
import type { TopicDefinition } from '../platform/changes'
import type { ResourceSpec } from '../platform/crud/resource'
import type { Db } from '../platform/db'
import type { ErrorCatalogue } from '../platform/errors'
import type { AuditActionDefinition, EventBus, EventDefinition, EventEnvelope } from '../platform/events'
import type { SearchSource } from '../platform/fulltext'
import type { Guards } from '../platform/guards'
import type { Job } from '../platform/jobs'
import type { AccessClaims } from '../platform/jwt'
import type { QueueHandler } from '../platform/queue'
import type { Consent } from './messaging/service'
import type { EntityOwnerLookup } from './registry/service'

/**
 * What each module offers the others, by module name. Every module's index.ts adds its entry
 * (`declare module '../module' { interface Services { customer: CustomerService } }`), so a module
 * asks for another's service by name without importing its code.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each module adds its entry by declaration merging, which a type alias cannot take
export interface Services {}

/** What a module's setup gets: the app's deps, the event bus, the guards, and the other modules' services. */
export interface ModuleContext {
  deps: Deps
  bus: EventBus
  guards: Guards
  /** Another module's services, set up on first use (a module never asks for its own). */
  use<Name extends keyof Services>(name: Name): Services[Name]
  /** Every declared event (outbound webhooks publish those with a webhook type). */
  events: readonly EventDefinition[]
  /** Every module's definition, for areas that gather what the others contribute (search). */
  modules: readonly ModuleDefinition[]
  /** The realtime topics every module offers (complete once every module is set up: ask from `routes`). */
  topics(): TopicDefinition[]
  /** What every module adds to an extension point (complete once every module is set up: ask at run time, not in `setup`). */
  extensions<Point extends keyof Extensions>(point: Point): NonNullable<Extensions[Point]>[]
}

/**
 * What a module adds to the extension points of others; each point is read by the module that
 * owns it (auth, registry, messaging), through `ModuleContext.extensions`.
 */
export interface Extensions {
  /** Access-token kinds (`typ`) it signs and resolves itself; auth's bearer check hands such tokens to it. */
  tokenKinds?: Readonly<Record<string, (claims: AccessClaims) => Promise<Principal>>>
  /** Entity types readable identifiers (rdids) may name, each with whom an entity belongs to; registry mints them. */
  entityTypes?: Readonly<Record<string, EntityOwnerLookup>>
  /** Whether a customer takes a category of message, and its unsubscribe link; messaging asks it (one module answers). */
  consent?: Consent
}

/** A subscription's handler: runs inside the emitter's transaction, before `emit` returns. */
export type EventHandler<E extends EventDefinition = EventDefinition> = (
  tx: Db,
  event: EventEnvelope<Static<E['payload']>, E['scope'] extends 'account' ? null : string>,
  definition: EventDefinition,
) => Promise<void>

/**
 * One reaction of a module to an event, declared in its `subscriptions.ts` and listed in its
 * manifest; the app subscribes it once every module is set up. Docs/events.md lists them.
 */
export interface Subscription<Own = unknown> {
  /** The event, or a test that picks every declared event it takes (outbound webhooks take those with a webhook type). */
  event: EventDefinition | { each: (event: EventDefinition) => boolean; which: string }
  /** What it does, in a few words (docs/events.md). */
  does: string
  /** Makes the handler from the module's own services and the context. */
  handler(own: Own, ctx: ModuleContext): EventHandler
}

/** Declares a module's subscriptions, typed by its own services: `const on = subscriber<SiteService>()`. */
export function subscriber<Own>() {
  return {
    on: <E extends EventDefinition>(event: E, does: string, handler: (own: Own, ctx: ModuleContext) => EventHandler<E>): Subscription<Own> => ({
      event,
      does,
      handler: handler as unknown as Subscription<Own>['handler'],
    }),
    each: (
      which: string,
      test: (event: EventDefinition) => boolean,
      does: string,
      handler: (own: Own, ctx: ModuleContext) => EventHandler,
    ): Subscription<Own> => ({ event: { each: test, which }, does, handler }),
  }
}

type OwnServices<Name> = Name extends keyof Services ? Services[Name] : never

/** What a module's setup hands back to the app. */
export interface ModuleParts<Name extends keyof Services | string> {
  /** Builds its routes once every module is set up (the guards need the auth and customer services); mounted in module-list order. */
  routes?: () => AnyElysia[]
  /** Its entry in Services, for other modules and for `app.services`. */
  services?: OwnServices<Name>
  /** What it adds to other modules' extension points. */
  extends?: Extensions
  /** The realtime topics of its rows (platform/changes); their writes emit its `<name>.rows.changed` event. */
  topics?: TopicDefinition[]
  /** Its durable queue's job kinds (the app defines them before the queue starts). */
  queues?: QueueHandler[]
  /** Starts following changes made by other replicas (PostgreSQL NOTIFY); resolves to its stop. */
  listen?: () => Promise<() => Promise<void>>
  /** Releases what it holds open (connections, timers) at shutdown. */
  close?: () => void
}

/**
 * One area of Ecobase: everything the app, the scheduler and the OpenAPI document need from it.
 * Its tables are the `schema.ts` beside it (drizzle-kit reads `src/modules/*\/schema.ts`).
 */
export interface ModuleDefinition<Name extends string = string, Errors extends ErrorCatalogue = ErrorCatalogue, Actions extends string = string> {
  name: Name
  /** OpenAPI tags it owns, with their descriptions (the document lists them in module order). */
  tags?: Readonly<Record<string, string>>
  /** Its error codes with their meanings (`errorCatalogue` in its errors.ts). */
  errors?: Errors
  /** The domain events it emits (its events.ts), each named `<name>.<noun>.<verb>`. */
  events?: readonly EventDefinition[]
  /** The audit actions it records (beside its events, in its events.ts), each named `<name>.<noun>.<verb>`. */
  audit?: readonly AuditActionDefinition<Actions>[]
  /** Its scheduled jobs (its jobs.ts). */
  jobs?: readonly Job<Deps>[]
  /** Its table-derived resources (platform/crud), in the order their examples depend on each other; the cross-tenant suite walks them. */
  resources?: readonly ResourceSpec<string, string, TObject, TObject, TObject>[]
  /** How it reacts to events (its subscriptions.ts), run in the emitter's transaction. */
  subscriptions?: readonly Subscription<OwnServices<Name>>[]
  /** The resources of its tables the search box searches (search/service.ts), each with the rows a tenant may find. */
  search?: readonly SearchSource[]
  /** What its routes need of the HTTP layer and the document beyond their own schemas. */
  http?: {
    /** Path prefixes whose bodies reach the route unparsed (uploads to the local object store). */
    rawBodyPaths?: readonly string[]
    /** Paths that also take form-encoded bodies (OAuth clients, one-click unsubscribe). */
    formBodyPaths?: readonly string[]
    /** Path prefixes whose JSON bodies are checked as any but read by the route as text (a signature covers the bytes). */
    verbatimBodyPaths?: readonly string[]
    /** `METHOD /route/:template` of its routes in the `expensive` rate-limit class (platform/api-limits.ts). */
    expensiveRoutes?: readonly string[]
    /** OpenAPI security schemes its routes name. */
    securitySchemes?: Readonly<Record<string, unknown>>
    /** The document's `webhooks` section it publishes, from every declared event. */
    webhooks?: (events: readonly EventDefinition[]) => Record<string, never>
  }
  /** Builds its services, defines its queue handlers and returns its parts. */
  setup?(ctx: ModuleContext): ModuleParts<Name>
}

// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty catalogue of a module that declares no errors, as TypeScript infers it
export function defineModule<const Name extends string, const Errors extends ErrorCatalogue = {}, const Actions extends string = never>(
  definition: ModuleDefinition<Name, Errors, Actions>,
): ModuleDefinition<Name, Errors, Actions> {
  return definition
}
