import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { CUSTOMER, ChatConversation, ChatConversationCreate, ChatConversationDetail, ChatConversationRename, ChatMessage, ChatMessageEdit } from '../model'
import type { ChatService } from '../service'
import { IdParam } from '../../../platform/params'

const MessageId = t.Object({ id: t.String({ format: 'uuid' }), messageId: t.String({ format: 'uuid' }) })

/** Conversations of the calling customer. */
export function conversationRoutes(chat: ChatService, guards: Guards) {
  return new Elysia({ name: 'chat-conversations', prefix: '/chat/conversations', detail: { tags: ['chat'] } })
    .use(guards.tenancy)
    .post('', async ({ tenant, body, status }) => status(201, await chat.create(tenant, body ?? {})), {
      tenant: 'customer',
      body: t.Optional(ChatConversationCreate),
      response: { 201: ChatConversation, ...errors({ 404: ['not_found', 'persona_not_found'] }) },
      detail: {
        operationId: 'chatCreateConversation',
        summary: 'Start a conversation',
        description: `With \`personaSlug\`, replies use the persona's prompt, service and model (404 \`persona_not_found\`). \`model\` defaults to the persona's model, else CHAT_MODEL (\`dev\` when no model service is configured). ${CUSTOMER}`,
      },
    })
    .get('', ({ tenant, query }) => chat.list(tenant, pageParams(query)), {
      tenant: 'customer',
      query: PageQuery,
      response: { 200: paged(ChatConversation, 'ChatConversationPage') },
      detail: { operationId: 'chatListConversations', summary: 'Conversations, newest first', description: CUSTOMER },
    })
    .get('/:id', ({ tenant, params }) => chat.detail(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: ChatConversationDetail },
      detail: {
        operationId: 'chatGetConversation',
        summary: 'A conversation with its messages',
        description: `Messages oldest first; a reply still streaming is not listed yet. ${CUSTOMER}`,
      },
    })
    .patch('/:id', ({ tenant, params, body }) => chat.rename(tenant, params.id, body.title), {
      tenant: 'customer',
      params: IdParam,
      body: ChatConversationRename,
      response: { 200: ChatConversation },
      detail: { operationId: 'chatRenameConversation', summary: 'Rename a conversation', description: CUSTOMER },
    })
    .delete(
      '/:id',
      async ({ tenant, params, status }) => {
        await chat.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'customer',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted with its messages' }) },
        detail: { operationId: 'chatDeleteConversation', summary: 'Delete a conversation', description: CUSTOMER },
      },
    )
    .patch('/:id/messages/:messageId', ({ tenant, params, body }) => chat.editMessage(tenant, params.id, params.messageId, body.content), {
      tenant: 'customer',
      params: MessageId,
      body: ChatMessageEdit,
      response: { 200: ChatMessage, ...errors({ 409: ['in_progress', 'not_editable'] }) },
      detail: {
        operationId: 'chatEditMessage',
        summary: 'Edit a user message',
        description: `Drops every message after it; POST …/regenerate then streams a new reply. 409 \`not_editable\` for other roles, \`in_progress\` while a reply streams. ${CUSTOMER}`,
      },
    })
}
