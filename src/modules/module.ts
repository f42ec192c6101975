import type { AnyElysia } from 'elysia'
import type { Deps } from '../deps'
import type { TopicDefinition } from '../platform/changes'
import type { ErrorCatalogue } from '../platform/errors'
import type { EventBus, EventDefinition } from '../platform/events'
import type { SearchSource } from '../platform/fulltext'
import type { Guards } from '../platform/guards'
import type { Job } from '../platform/jobs'
import type { QueueHandler } from '../platform/queue'

/**
 * What each module offers the others, by module name. Every module's index.ts adds its entry
 * (`declare module '../module' { interface Services { customer: CustomerService } }`), so a module
 * asks for another's service by name without importing its code.
 */
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
}

/** What a module's setup hands back to the app. */
export interface ModuleParts<Name extends keyof Services | string> {
  /** Builds its routes once every module is set up (the guards need the auth and customer services); mounted in module-list order. */
  routes?: () => AnyElysia[]
  /** Its entry in Services, for other modules and for `app.services`. */
  services?: Name extends keyof Services ? Services[Name] : never
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
export interface ModuleDefinition<Name extends string = string, Errors extends ErrorCatalogue = ErrorCatalogue> {
  name: Name
  /** OpenAPI tags it owns, with their descriptions (the document lists them in module order). */
  tags?: Readonly<Record<string, string>>
  /** Its error codes with their meanings (`errorCatalogue` in its errors.ts). */
  errors?: Errors
  /** The domain events it emits (its events.ts), each named `<name>.<noun>.<verb>`. */
  events?: readonly EventDefinition[]
  /** Its scheduled jobs (its jobs.ts). */
  jobs?: readonly Job<Deps>[]
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
    /** OpenAPI security schemes its routes name. */
    securitySchemes?: Readonly<Record<string, unknown>>
  }
  /** Builds its services, subscribes to events, defines its queue handlers and returns its parts. */
  setup?(ctx: ModuleContext): ModuleParts<Name>
}

export function defineModule<const Name extends string, const Errors extends ErrorCatalogue = {}>(definition: ModuleDefinition<Name, Errors>): ModuleDefinition<Name, Errors> {
  return definition
}
