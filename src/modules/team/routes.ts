import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import { PageQuery, pageParams, paged } from '../../platform/paging'
import { MemberAdd, MemberPatch, TeamMember } from './model'
import type { TeamService } from './service'
import { IdParam } from '../../platform/params'

export function teamRoutes(team: TeamService, guards: Guards) {
  return new Elysia({ name: 'team', prefix: '/team', detail: { tags: ['team'] } })
    .use(guards.auth)
    .get('/members', ({ principal, query }) => team.list(principal.userId, query.organizationId, pageParams(query)), {
      auth: true,
      query: t.Composite([PageQuery, t.Object({ organizationId: t.String({ format: 'uuid' }) })]),
      response: { 200: paged(TeamMember, 'TeamMemberPage'), ...errors(400, 401, 404) },
      detail: {
        operationId: 'teamListMembers',
        summary: "Members of an organization's team (members only)",
        description:
          'Each member’s account, e-mail, role (`owner`, `admin`, `member`) and whether it has a verified second factor (`mfa`: under the organization’s `requireMfa`, a member without one cannot act in its ecosystems, by session or API token). Non-members: 404. Owners and admins add, change and remove members with the other /team/members operations.',
      },
    })
    .post('/members', async ({ principal, body, status }) => status(201, await team.add(principal, body)), {
      auth: true,
      body: MemberAdd,
      response: { 201: TeamMember, ...errors(400, 401, 403, { 404: ['not_found', 'user_not_found'], 409: ['already_member'] }) },
      detail: {
        operationId: 'teamAddMember',
        summary: 'Add an existing account to the team (admin or owner)',
        description: 'Only owners may add owners. 404 `user_not_found` when no account has the e-mail; 409 `already_member`.',
      },
    })
    .patch('/members/:id', ({ principal, params, body }) => team.changeRole(principal, params.id, body.role), {
      auth: true,
      params: IdParam,
      body: MemberPatch,
      response: { 200: TeamMember, ...errors(400, 401, 403, 404, { 409: ['last_owner'] }) },
      detail: {
        operationId: 'teamChangeRole',
        summary: "Change a member's role (admin or owner)",
        description: 'Only owners grant or take away `owner`. Demoting the last owner: 409 `last_owner`.',
      },
    })
    .delete(
      '/members/:id',
      async ({ principal, params, status }) => {
        await team.remove(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Removed' }), ...errors(400, 401, 403, 404, { 409: ['last_owner'] }) },
        detail: {
          operationId: 'teamRemoveMember',
          summary: 'Remove a member, or leave',
          description: 'Anyone may leave; admins remove members; only owners remove owners. Removing the last owner: 409 `last_owner`.',
        },
      },
    )
}
