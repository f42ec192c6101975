import { defineAuditActions } from '../../platform/events'

/** The audit actions team records (GET /audit/events). */
export const TEAM_AUDIT = defineAuditActions('team', {
  'team.member.added': 'An account was added to an organization',
  'team.member.role_changed': 'A member’s role changed',
  'team.member.removed': 'A member was removed',
  'team.member.left': 'A member left the organization',
})
