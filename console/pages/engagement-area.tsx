import type { PageEntry } from '../nav'

/** Sections about what an ecosystem does with its customers: community, messaging, notifications, site, webhooks, monitored sites. */
export const ENGAGEMENT_AREA_PAGES: PageEntry[] = []
