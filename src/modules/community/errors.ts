import { errorCatalogue } from '../../platform/errors'

/** The error codes the community area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const COMMUNITY_ERRORS = {
  category_not_found: 'categoryId names no category of this ecosystem',
  category_not_empty: 'the category still has threads: move or delete them first',
  default_category: 'the general category cannot be deleted',
  thread_not_found: 'threadId names no thread of this ecosystem',
  thread_locked: 'the thread is locked: only admins may reply',
} as const

/** `communityError(status, code, message)` throws only platform or community codes; `errors(...)` lists them on routes. */
export const { error: communityError, errors } = errorCatalogue(COMMUNITY_ERRORS)
