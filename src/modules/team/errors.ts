import { errorCatalogue } from '../../platform/errors'

/** The error codes the team area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const TEAM_ERRORS = {
  user_not_found: 'no account has this e-mail: ask them to register first',
  already_member: 'this account is already a member',
  last_owner: 'an organization must keep at least one owner',
} as const

/** `teamError(status, code, message)` throws only platform or team codes; `errors(...)` lists them on routes. */
export const { error: teamError, errors } = errorCatalogue(TEAM_ERRORS)
