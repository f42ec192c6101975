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
  { path: MONITORED_SITES_PATH, label: 'Monitored sites', group: 'Integrations', ecosystem: true, page: MonitoredSites },
  { path: WEBHOOKS_PATH, label: 'Webhooks', group: 'Integrations', ecosystem: true, page: Webhooks },
  { path: '#/community', label: 'Community', group: 'Engagement', ecosystem: true, page: Community },
  { path: '#/messaging', label: 'Messaging', group: 'Engagement', ecosystem: true, page: Messaging },
  { path: '#/notifications', label: 'Notifications', group: 'Engagement', ecosystem: true, page: Notifications },
  { path: '#/site-services', label: 'Site services', group: 'Integrations', ecosystem: true, page: SiteServices },
]
