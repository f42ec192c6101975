// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
export type * from './auth'
export type * from './billing'
export type * from './chat'
export type * from './community'
export type * from './contract'
export type * from './customer'
export type * from './data'
export type * from './integrations'
export type * from './messaging'
export type * from './monitored_sites'
export type * from './notifications'
export type * from './oauth'
export type * from './persona'
export type * from './persona_memory'
export type * from './public'
export type * from './realtime'
export type * from './registry'
export type * from './search'
export type * from './settings'
export type * from './shared'
export type * from './site'
export type * from './storage'
export type * from './team'
export type * from './usage'
export type * from './userdata'
import type { AuthRoutes } from './auth'
import type { BillingRoutes } from './billing'
import type { ChatRoutes } from './chat'
import type { CommunityRoutes } from './community'
import type { ContractRoutes } from './contract'
import type { CustomerRoutes } from './customer'
import type { DataRoutes } from './data'
import type { IntegrationsRoutes } from './integrations'
import type { MessagingRoutes } from './messaging'
import type { MonitoredSitesRoutes } from './monitored_sites'
import type { NotificationsRoutes } from './notifications'
import type { OauthRoutes, ApiRoutes, WellKnownRoutes } from './oauth'
import type { PersonaRoutes } from './persona'
import type { PersonaMemoryRoutes } from './persona_memory'
import type { HealthRoutes, MetricsRoutes, PublicRoutes } from './public'
import type { RealtimeRoutes } from './realtime'
import type { RegistryRoutes } from './registry'
import type { SearchRoutes } from './search'
import type { SystemRoutes, SettingsRoutes, AuditRoutes } from './settings'
import type { SiteRoutes } from './site'
import type { StorageRoutes } from './storage'
import type { TeamRoutes } from './team'
import type { UsageRoutes } from './usage'
import type { UserdataRoutes } from './userdata'

/** Every route of the API as Eden treaty calls it: path segments are properties, `{param}` segments are calls. */
export interface Api {
  health: HealthRoutes
  metrics: MetricsRoutes
  site: SiteRoutes
  system: SystemRoutes
  auth: AuthRoutes
  settings: SettingsRoutes
  audit: AuditRoutes
  oauth: OauthRoutes
  api: ApiRoutes
  ".well-known": WellKnownRoutes
  registry: RegistryRoutes
  team: TeamRoutes
  customer: CustomerRoutes
  storage: StorageRoutes
  usage: UsageRoutes
  persona: PersonaRoutes
  public: PublicRoutes
  chat: ChatRoutes
  persona_memory: PersonaMemoryRoutes
  search: SearchRoutes
  data: DataRoutes
  userdata: UserdataRoutes
  contract: ContractRoutes
  messaging: MessagingRoutes
  notifications: NotificationsRoutes
  community: CommunityRoutes
  integrations: IntegrationsRoutes
  monitored_sites: MonitoredSitesRoutes
  billing: BillingRoutes
  realtime: RealtimeRoutes
}
