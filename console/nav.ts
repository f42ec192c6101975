import type { ComponentType } from 'preact'

/** The sidebar's groups, in order: what an operator comes to do. */
export const GROUPS = ['Overview', 'People', 'Data', 'AI', 'Engagement', 'Integrations', 'Billing', 'Security and settings', 'Logs'] as const

/** A section of the console: `ecosystem` ones act in the picked ecosystem; the others are the account's or the instance's. */
export interface PageEntry {
  path: string
  label: string
  group: (typeof GROUPS)[number]
  ecosystem: boolean
  /** Shown to platform admins only (the account's `admin` capability); the API refuses the others anyway. */
  admin?: boolean
  page: ComponentType
}
