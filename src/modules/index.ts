import { type ErrorCatalogue, PLATFORM_ERRORS } from '../platform/errors'
import type { AuditActionDefinition } from '../platform/events'
import audit from './audit'
import auth from './auth'
import billing from './billing'
import chat from './chat'
import community from './community'
import console from './console'
import contract from './contract'
import customer from './customer'
import data from './data'
import integrations from './integrations'
import messaging from './messaging'
import monitored_sites from './monitored_sites'
import notifications from './notifications'
import oauth from './oauth'
import overview from './overview'
import persona from './persona'
import persona_memory from './persona_memory'
import realtime from './realtime'
import registry from './registry'
import search from './search'
import settings from './settings'
import site from './site'
import storage from './storage'
import system from './system'
import team from './team'
import userdata from './userdata'
import type { ModuleDefinition } from './module'

/**
 * Every area of Ecobase, in the order its routes are mounted and its tags listed. Adding an area is
 * a folder under src/modules with an index.ts (see module.ts) and one line here.
 */
export const MODULES = [
  system,
  console,
  auth,
  settings,
  audit,
  oauth,
  registry,
  team,
  customer,
  storage,
  persona,
  chat,
  persona_memory,
  search,
  data,
  userdata,
  contract,
  site,
  messaging,
  notifications,
  community,
  integrations,
  monitored_sites,
  overview,
  billing,
  realtime,
] as const

type CodesOf<M> = M extends ModuleDefinition<string, infer Errors> ? keyof Errors & string : never
type ActionsOf<M> = M extends ModuleDefinition<string, ErrorCatalogue, infer Actions> ? Actions : never

type AuditedOf<M> = M extends ModuleDefinition ? Extract<NonNullable<M['events']>[number], { audit: object }>['name'] : never

/** Every audit action: those the modules declare, and their audited events' names (the audit log's `action`). */
export type AuditAction = ActionsOf<(typeof MODULES)[number]> | AuditedOf<(typeof MODULES)[number]>

/** Every `error.code` the API answers: the platform's and each module's (the client's ErrorCode is the same union, from the document). */
export type ErrorCode = keyof typeof PLATFORM_ERRORS | CodesOf<(typeof MODULES)[number]>

/** Every error catalogue, by area: the platform's codes and each module's own. */
export const ERROR_CATALOGUES: Record<string, ErrorCatalogue> = {
  platform: PLATFORM_ERRORS,
  ...Object.fromEntries(MODULES.flatMap((m): [string, ErrorCatalogue][] => (m.errors ? [[m.name, m.errors]] : []))),
}

/** The codes of every catalogue, sorted, each once (several areas answer e.g. `slug_taken`). */
export const ERROR_CODES = [...new Set(Object.values(ERROR_CATALOGUES).flatMap((c) => Object.keys(c)))].sort() as ErrorCode[]

/** Every scheduled job, each defined in the module whose tables it keeps. */
export const JOBS = MODULES.flatMap((m) => m.jobs ?? [])

/** Every domain event, in module order. */
export const EVENTS = MODULES.flatMap((m) => m.events ?? [])

/** Every audit action, in module order: each module's declared ones, then its audited events. */
export const AUDIT_ACTIONS = MODULES.flatMap((m): AuditActionDefinition<AuditAction>[] => [
  ...(m.audit ?? []),
  ...(m.events ?? []).filter((e) => e.audit && !e.audit.action).map((e) => ({ name: e.name as AuditAction, description: e.description })),
])

/** The OpenAPI tags with their descriptions, in module order. */
export const TAGS = MODULES.flatMap((m) => Object.entries(m.tags ?? {}).map(([name, description]) => ({ name, description })))

/** Every table-derived resource the app serves, in module order and, within one, dependency order (the cross-tenant suite walks them). */
export const DERIVED_RESOURCES = MODULES.flatMap((m) => m.resources ?? [])
