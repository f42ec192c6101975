import { Elysia, sse } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { type ChatEvent, ChatSendMessage, ChatStreamEvent } from '../model'
import type { ChatService } from '../service'
import { CUSTOMER } from '../model'
import { IdParam } from '../../../platform/params'

const STREAM = `Answers 200 \`text/event-stream\`: \`open\` (conversationId, userMessageId, assistantMessageId), then \`token\` (text) and \`tool_call_started\` / \`tool_call_completed\` around each tool call, then \`done\` (empty) once the reply is stored; or \`error\` (message) when the model service fails or times out (CHAT_TIMEOUT_SECONDS), the HTTP status staying 200. Refusals before the stream starts are ordinary JSON errors. A client that disconnects stops the model request; the text so far is kept as a \`partial\` reply.`

/** Relays a turn's events as SSE frames (`event:` name, `data:` JSON). */
async function* relay(events: AsyncGenerator<ChatEvent>, set: { headers: Record<string, unknown> }) {
  // Proxies such as nginx would otherwise buffer the stream and hold the tokens back.
  set.headers['x-accel-buffering'] = 'no'
  for await (const event of events) yield sse(event)
}

/** The streamed chat turns. */
export function streamRoutes(chat: ChatService, guards: Guards) {
  return new Elysia({ name: 'chat-stream', prefix: '/chat/conversations', detail: { tags: ['chat'] } })
    .use(guards.tenancy)
    .post(
      '/:id/messages',
      async function* ({ tenant, params, body, request, set }) {
        yield* relay(await chat.send(tenant, params.id, body, request.signal), set)
      },
      {
        tenant: 'customer',
        params: IdParam,
        body: ChatSendMessage,
        response: {
          200: ChatStreamEvent,
          ...errors({ 402: ['entitlement_exceeded'], 409: ['in_progress', 'client_message_id_reused', 'persona_unavailable'] }),
        },
        detail: {
          operationId: 'chatSendMessage',
          summary: 'Send a message and stream the reply',
          description: `${STREAM} The user message is stored before the stream opens. With \`clientMessageId\`, sending again does not store a second message: it answers the stored reply as events, or 409 \`in_progress\` while it is still streaming (409 \`client_message_id_reused\` when the message text differs). 409 \`in_progress\` also while another reply of the conversation streams; 409 \`persona_unavailable\` when its persona was deleted; 402 \`entitlement_exceeded\` past the \`chat.messages\` of the customer’s billing plan (each reply counts one: a message sent, or a reply regenerated). ${CUSTOMER}`,
        },
      },
    )
    .post(
      '/:id/regenerate',
      async function* ({ tenant, params, request, set }) {
        yield* relay(await chat.regenerate(tenant, params.id, request.signal), set)
      },
      {
        tenant: 'customer',
        params: IdParam,
        response: { 200: ChatStreamEvent, ...errors({ 402: ['entitlement_exceeded'], 409: ['in_progress', 'nothing_to_regenerate', 'persona_unavailable'] }) },
        detail: {
          operationId: 'chatRegenerate',
          summary: 'Stream a new reply to the last user message',
          description: `Drops the reply and tool calls after the last user message first. ${STREAM} 409 \`nothing_to_regenerate\` without a user message, \`in_progress\` while a reply streams; 402 \`entitlement_exceeded\` past the \`chat.messages\` of the customer’s billing plan (a regenerated reply counts one, as a sent message does; nothing is dropped then). ${CUSTOMER}`,
        },
      },
    )
}
