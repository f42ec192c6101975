import { sql } from 'drizzle-orm'
import { bigserial, index, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { searchVector, tsvector } from '../../platform/fulltext'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const chatSchema = pgSchema('chat')

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** A customer's conversation; `ownerId` is the ecosystem. */
export const conversations = chatSchema.table(
  'conversations',
  {
    /** UUIDv7: time-ordered, so that "newest first" is stable within one millisecond (PGlite's clock resolution). */
    id: uuid('id')
      .primaryKey()
      .defaultRandom()
      .$defaultFn(() => Bun.randomUUIDv7()),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    model: text('model').notNull(),
    personaSlug: text('persona_slug'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('conversations_customer_idx').on(t.ownerId, t.customerId, t.createdAt)],
)

export type MessageRole = 'user' | 'assistant' | 'tool'
/** `complete`; `partial`: the client went away mid-reply; `failed`: the model service failed (see `error`). */
export type MessageStatus = 'complete' | 'partial' | 'failed'
/** Of a user message: its reply is being streamed, has been stored, or does not exist (edited). */
export type ReplyState = 'none' | 'streaming' | 'done'

/**
 * Messages in `seq` order. A turn is a user message, the tool calls the model made, then the
 * assistant reply, which is written when the turn ends (its id is fixed when the turn starts).
 */
export const messages = chatSchema.table(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    ownerId: uuid('owner_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    role: text('role').$type<MessageRole>().notNull(),
    content: text('content').notNull(),
    status: text('status').$type<MessageStatus>().notNull().default('complete'),
    /** Why a `failed` reply failed (shown to the user). */
    error: text('error'),
    toolName: text('tool_name'),
    toolCallId: text('tool_call_id'),
    toolArguments: text('tool_arguments'),
    /** User messages: the caller's idempotency key. */
    clientMessageId: text('client_message_id'),
    /** User messages: id of the assistant reply of the current turn. */
    replyId: uuid('reply_id'),
    replyState: text('reply_state').$type<ReplyState>(),
    createdAt: createdAt(),
    /** For a user message whose reply is streaming: the heartbeat of the replica streaming it. */
    updatedAt: updatedAt(),
    /** Full-text index of the text of user and assistant messages (tool results are not searchable). */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`case when role <> 'tool' then ${searchVector('content')} end`),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.seq),
    /** A customer's messages newest first: search reads the newest matches of a customer through it. */
    index('messages_customer_recent_idx').on(t.customerId, t.ownerId, t.createdAt),
    index('messages_search_idx').using('gin', t.searchVector),
    uniqueIndex('messages_client_id_uq').on(t.conversationId, t.clientMessageId).where(sql`${t.clientMessageId} is not null`),
  ],
)
