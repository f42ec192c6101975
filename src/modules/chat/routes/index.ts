import { Elysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import type { ChatService } from '../service'
import { conversationRoutes } from './conversations'
import { streamRoutes } from './stream'

/** Every route of the chat area. */
export function chatRoutes(chat: ChatService, guards: Guards) {
  return new Elysia({ name: 'chat' }).use(conversationRoutes(chat, guards)).use(streamRoutes(chat, guards))
}
