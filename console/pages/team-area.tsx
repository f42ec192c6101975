import type { PageEntry } from '../nav'

/** Sections about who works in an ecosystem and what it runs: team, personas, memories, OAuth clients, sign-in settings. */
export const TEAM_AREA_PAGES: PageEntry[] = []
