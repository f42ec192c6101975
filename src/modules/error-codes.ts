import { PLATFORM_ERRORS, type ErrorCatalogue } from '../platform/errors'
import { AUTH_ERRORS } from './auth/errors'
import { CHAT_ERRORS } from './chat/errors'
import { COMMUNITY_ERRORS } from './community/errors'
import { CONTRACT_ERRORS } from './contract/errors'
import { CUSTOMER_ERRORS } from './customer/errors'
import { DATA_ERRORS } from './data/errors'
import { MESSAGING_ERRORS } from './messaging/errors'
import { NOTIFICATION_ERRORS } from './notifications/errors'
import { OAUTH_ERRORS } from './oauth/errors'
import { PERSONA_ERRORS } from './persona/errors'
import { PERSONA_MEMORY_ERRORS } from './persona_memory/errors'
import { REGISTRY_ERRORS } from './registry/errors'
import { STORAGE_ERRORS } from './storage/errors'
import { TEAM_ERRORS } from './team/errors'

/**
 * Every error catalogue, by area: the platform's codes and each module's own. Gathered here (not in
 * platform/, which imports no module) for the OpenAPI document's Error schema.
 */
export const ERROR_CATALOGUES = {
  platform: PLATFORM_ERRORS,
  auth: AUTH_ERRORS,
  chat: CHAT_ERRORS,
  community: COMMUNITY_ERRORS,
  contract: CONTRACT_ERRORS,
  customer: CUSTOMER_ERRORS,
  data: DATA_ERRORS,
  messaging: MESSAGING_ERRORS,
  notifications: NOTIFICATION_ERRORS,
  oauth: OAUTH_ERRORS,
  persona: PERSONA_ERRORS,
  persona_memory: PERSONA_MEMORY_ERRORS,
  registry: REGISTRY_ERRORS,
  storage: STORAGE_ERRORS,
  team: TEAM_ERRORS,
} as const satisfies Record<string, ErrorCatalogue>

type Catalogues = typeof ERROR_CATALOGUES
/** Every `error.code` the API answers: the union of all catalogues (the client's ErrorCode is the same union, from the document). */
export type ErrorCode = { [A in keyof Catalogues]: keyof Catalogues[A] & string }[keyof Catalogues]

/** The codes of every catalogue, sorted, each once (several areas answer e.g. `slug_taken`). */
export const ERROR_CODES: readonly ErrorCode[] = [...new Set(Object.values(ERROR_CATALOGUES).flatMap((c) => Object.keys(c) as ErrorCode[]))].sort()
