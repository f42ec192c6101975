import { t, type Static } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { MEDIA_TYPE } from '../../platform/openapi'

/** Who may call the conversation routes (and search them), as their descriptions say. */
export const CUSTOMER = "The caller's own conversations: a customer token, or an account member with X-Ecosystem-Id (acting as its own customer record)."

export const ChatConversation = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    title: t.String(),
    model: t.String({ description: 'Model the replies come from; `dev` is the built-in development model (a deterministic echo, not an AI)' }),
    personaSlug: t.Nullable(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'ChatConversation',
    examples: [
      {
        id: '7c6b5a49-3827-4165-9f4e-3d2c1b0a9f8e',
        title: 'Trip planning',
        model: 'dev',
        personaSlug: null,
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

export const ChatMessage = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    role: t.String({ description: '`user`, `assistant` or `tool`' }),
    content: t.String({ description: 'Text; for a tool message, the JSON-encoded tool result' }),
    toolName: t.Nullable(t.String()),
    createdAt: Timestamp,
    status: t.String({
      description:
        '`complete`; `partial`: the client disconnected before the reply finished (the text so far is kept); `failed`: the model service failed (a reply) or the call failed (a tool message)',
    }),
  },
  {
    title: 'ChatMessage',
    examples: [
      {
        id: '6b5a4938-2716-4f05-8e4d-3c2b1a0f9e8d',
        role: 'user',
        content: 'Plan four days in Lisbon for two.',
        toolName: null,
        createdAt: '2026-11-26T09:00:00.000Z',
        status: 'complete',
      },
    ],
  },
)

export const ChatConversationDetail = t.Object(
  { conversation: ChatConversation, messages: t.Array(ChatMessage, { description: 'Oldest first' }) },
  {
    title: 'ChatConversationDetail',
    examples: [
      {
        conversation: {
          id: '7c6b5a49-3827-4165-9f4e-3d2c1b0a9f8e',
          title: 'Trip planning',
          model: 'dev',
          personaSlug: null,
          createdAt: '2026-11-26T09:00:00.000Z',
          updatedAt: '2026-11-26T09:00:05.000Z',
        },
        messages: [
          {
            id: '6b5a4938-2716-4f05-8e4d-3c2b1a0f9e8d',
            role: 'user',
            content: 'Plan three days in Lisbon for two.',
            toolName: null,
            createdAt: '2026-11-26T09:00:04.000Z',
            status: 'complete',
          },
          {
            id: '5a493827-1605-4e4d-9c3b-2a1f0e9d8c7b',
            role: 'assistant',
            content: 'This is the development model (no AI configured). You said: Plan three days in Lisbon for two.',
            toolName: null,
            createdAt: '2026-11-26T09:00:05.000Z',
            status: 'complete',
          },
        ],
      },
    ],
  },
)

export const ChatConversationCreate = t.Object(
  {
    title: t.Optional(t.String({ maxLength: 200, description: 'Default: "New conversation"' })),
    model: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Default: the persona's model, else CHAT_MODEL" })),
    personaSlug: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'A persona of the ecosystem; its prompt and service are used' })),
  },
  { title: 'ChatConversationCreate', examples: [{ title: 'Trip planning' }] },
)

export const ChatConversationRename = t.Object(
  { title: t.String({ minLength: 1, maxLength: 200 }) },
  { title: 'ChatConversationRename', examples: [{ title: 'Lisbon in May' }] },
)

export const ChatMessageEdit = t.Object(
  { content: t.String({ minLength: 1 }) },
  { title: 'ChatMessageEdit', examples: [{ content: 'Plan four days in Lisbon for two.' }] },
)

export const ChatSendMessage = t.Object(
  {
    message: t.String({ minLength: 1 }),
    clientMessageId: t.Optional(
      t.String({ minLength: 1, maxLength: 255, description: 'Idempotency key for the user message, unique within the conversation' }),
    ),
  },
  { title: 'ChatSendMessage', examples: [{ message: 'Plan three days in Lisbon for two.', clientMessageId: 'msg-2026-11-26-001' }] },
)

const event = <E extends string, D extends ReturnType<typeof t.Object>>(name: E, data: D, description: string) =>
  t.Object({ event: t.Literal(name), data }, { description })

/**
 * One server-sent event of a chat turn: the SSE `event:` line is `event`, the `data:` line is
 * `data` as JSON. Order: open, then token / tool_call_started / tool_call_completed, then done
 * or error.
 */
export const ChatStreamEvent = t.Union(
  [
    event(
      'open',
      t.Object({ conversationId: t.String(), userMessageId: t.String(), assistantMessageId: t.String() }),
      'The stream has opened; the user message is stored and the reply will have `assistantMessageId`',
    ),
    event('token', t.Object({ text: t.String() }), 'A chunk of streamed assistant text'),
    event('tool_call_started', t.Object({ name: t.String(), arguments: t.String({ description: 'JSON-encoded tool arguments' }) }), 'The model invoked a tool'),
    event(
      'tool_call_completed',
      t.Object({ name: t.String(), ok: t.Boolean(), result: t.String({ description: 'JSON-encoded tool result' }) }),
      'A tool finished',
    ),
    event(
      'done',
      t.Object({}),
      'The turn completed (payload empty, as the spec says); its reply, the `assistantMessageId` of `open`, is stored before this event is sent, so it can be fetched at once',
    ),
    event('error', t.Object({ message: t.String() }), 'The turn failed (the HTTP status stays 200); the text so far is stored as a failed reply'),
  ],
  {
    title: 'ChatStreamEvent',
    description: 'Server-sent events (text/event-stream); each frame is `event: <name>` and `data: <JSON>`, as one of these',
    [MEDIA_TYPE]: 'text/event-stream',
  },
)

export type ChatEvent = Static<typeof ChatStreamEvent>
