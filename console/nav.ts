import type { ComponentType } from 'preact'

/** A section of the console: `ecosystem` ones act in the picked ecosystem; the others are the account's or the instance's. */
export interface PageEntry {
  path: string
  label: string
  ecosystem: boolean
  page: ComponentType
}
