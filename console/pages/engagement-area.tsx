import './engagement.css'
import type { PageEntry } from '../nav'
import { Community } from './community'
import { Messaging } from './messaging'
import { MONITORED_SITES_PATH, MonitoredSites } from './monitored-sites'
import { Notifications } from './notifications'
import { SiteServices } from './site'
import { WEBHOOKS_PATH, Webhooks } from './webhooks'

/** Sections about what an ecosystem does with its customers: community, messaging, notifications, site, webhooks, monitored sites. */
export const ENGAGEMENT_AREA_PAGES: PageEntry[] = [
  { path: MONITORED_SITES_PATH, label: 'Monitored sites', ecosystem: true, page: MonitoredSites },
  { path: WEBHOOKS_PATH, label: 'Webhooks', ecosystem: true, page: Webhooks },
  { path: '#/community', label: 'Community', ecosystem: true, page: Community },
  { path: '#/messaging', label: 'Messaging', ecosystem: true, page: Messaging },
  { path: '#/notifications', label: 'Notifications', ecosystem: true, page: Notifications },
  { path: '#/site-services', label: 'Site services', ecosystem: true, page: SiteServices },
]
