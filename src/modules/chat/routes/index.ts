import { Elysia } from 'elysia'
import type { Deps } from '../../../deps'
import type { PrincipalSource } from '../../../platform/auth'
import type { TenancySource } from '../../../platform/tenancy'
import type { ChatService } from '../service'
import { conversationRoutes } from './conversations'
import { streamRoutes } from './stream'

/** Every route of the chat area. */
export function chatRoutes(deps: Deps, chat: ChatService, users: PrincipalSource, tenancy: TenancySource) {
  return new Elysia({ name: 'chat' }).use(conversationRoutes(deps, chat, users, tenancy)).use(streamRoutes(deps, chat, users, tenancy))
}
