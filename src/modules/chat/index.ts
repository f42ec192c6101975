import { defineModule } from '../module'
import { CHAT_ERRORS } from './errors'
import { CHAT_EVENTS } from './events'
import { chatRoutes } from './routes'
import { ChatService } from './service'

export default defineModule({
  name: 'chat',
  tags: {
    chat: 'Conversations with a persona: messages, streamed replies (server-sent events), regeneration, edits.',
  },
  errors: CHAT_ERRORS,
  http: { expensiveRoutes: ['POST /chat/conversations/:id/messages', 'POST /chat/conversations/:id/regenerate'] },
  events: CHAT_EVENTS,
  setup: (ctx) => {
    const chat = new ChatService(ctx.deps, ctx.use('persona'), ctx.bus, {
      memory: ctx.use('persona_memory').chatTools,
      search: ctx.use('search').chatTools,
      gate: ctx.use('billing').entitlements,
    })
    return { routes: () => [chatRoutes(chat, ctx.guards)] }
  },
})
