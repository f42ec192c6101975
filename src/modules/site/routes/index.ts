import type { AnyElysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import type { SiteService } from '../service'
import { feedRoutes } from './feed'
import { siteRoutes } from './services'

/** Every route of the site area, in mount order. */
export function siteAreaRoutes(site: SiteService, guards: Guards): AnyElysia[] {
  return [siteRoutes(site.sites, guards), feedRoutes(site.feed, guards)]
}
