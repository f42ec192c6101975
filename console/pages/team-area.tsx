import './team-area.css'
import type { PageEntry } from '../nav'
import { Memories } from './memories'
import { OAuthClients } from './oauth-clients'
import { Personas } from './personas'
import { SignInSettings } from './sign-in-settings'
import { Team } from './team'

/** Sections about who works in an ecosystem and what it runs: team, personas, memories, OAuth clients, sign-in settings. */
export const TEAM_AREA_PAGES: PageEntry[] = [
  // The team is the organization's; the console knows it from the picked ecosystem.
  { path: '#/team', label: 'Team', group: 'People', ecosystem: true, page: Team },
  { path: '#/personas', label: 'Personas', group: 'AI', ecosystem: true, page: Personas },
  { path: '#/memories', label: 'Memories', group: 'AI', ecosystem: true, page: Memories },
  { path: '#/oauth-clients', label: 'OAuth clients', group: 'Integrations', ecosystem: false, page: OAuthClients },
  { path: '#/sign-in-settings', label: 'Sign-in settings', group: 'Security and settings', ecosystem: false, page: SignInSettings },
]
