import { defineModule } from '../module'
import { TEAM_AUDIT } from './events'
import { TEAM_ERRORS } from './errors'
import { teamRoutes } from './routes'
import { TeamService } from './service'

declare module '../module' {
  interface Services {
    team: TeamService
  }
}

export default defineModule({
  name: 'team',
  tags: {
    team: 'Members of an organization and their roles (owner, admin, member).',
  },
  errors: TEAM_ERRORS,
  audit: TEAM_AUDIT,
  setup: (ctx) => {
    const team = new TeamService(ctx.deps, ctx.use('auth').accounts, ctx.use('audit'))
    return { services: team, routes: () => [teamRoutes(team, ctx.guards)] }
  },
})
