import { CHAT_MESSAGES, type EntitlementGate, OPEN_GATE } from '../../platform/entitlements'
import { and, asc, desc, eq, getTableColumns, gt, gte, sql } from 'drizzle-orm'
import { countPerDay } from '../../platform/db/daily'
import type { Deps } from '../../deps'
import { type Db, queryRows } from '../../platform/db'
import { rowFromJson } from '../../platform/db/json-rows'
import { chatError } from './errors'
import type { EventBus } from '../../platform/events'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { PersonaService } from '../persona/service'
import { type ConversationRow, conversationView, messageColumns, type MessageRow, messageView } from './history'
import type { ChatEvent } from './model'
import { conversations, messages } from './schema'
import { currentTime } from './tools/clock'
import { memoryTools, type MemoryTools } from './tools/memory'
import { ToolRegistry } from './tools/registry'
import { type ConversationSearch, searchTool } from './tools/search'
import { replyInProgress, touchConversation, type TurnCall, type TurnTarget, TurnRunner } from './turns'

export type { MemoryTools } from './tools/memory'
export { CHAT_SEARCH_CANDIDATES, ChatMessageSearch } from './search'
export type { ConversationSearch } from './tools/search'

export interface ChatOptions {
  /** Persona memory; when given, conversations with a persona get memory_recall and memory_save. */
  memory?: MemoryTools
  /** Full-text search; when given, every conversation gets the `search` tool over the customer's other conversations. */
  search?: ConversationSearch
  /** Billing: each model reply, from a send or a regenerate, counts one `chat.messages` (402 past the plan's limit); none, no limit. */
  gate?: EntitlementGate
}

const DEFAULT_TITLE = 'New conversation'
const conversationColumns = getTableColumns(conversations)
const notFound = () => chatError(404, 'not_found', 'No such conversation')
const inProgress = () => chatError(409, 'in_progress', 'A reply in this conversation is still streaming')

/** What `chat.take_turn` answers for a conversation of the caller: rows as JSON, keyed by column. */
interface TakenTurn {
  conversation: Record<string, unknown>
  messages: Record<string, unknown>[]
  added: string | null
}

/** Conversations of the calling customer, and the turns that stream their replies. */
export class ChatService {
  readonly tools: ToolRegistry
  private readonly turns: TurnRunner
  private readonly gate: EntitlementGate

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'llm' | 'logger' | 'now'>,
    private readonly personas: Pick<PersonaService, 'forChat'>,
    events: Pick<EventBus, 'emit'>,
    options: ChatOptions = {},
  ) {
    this.tools = new ToolRegistry().register(currentTime)
    if (options.memory) this.tools.register(...memoryTools(options.memory))
    if (options.search) this.tools.register(searchTool(options.search))
    this.turns = new TurnRunner(deps, this.tools, events)
    this.gate = options.gate ?? OPEN_GATE
  }

  async create(tenant: Tenant, input: { title?: string; model?: string; personaSlug?: string }) {
    let model = input.model
    if (input.personaSlug !== undefined) {
      const persona = await this.personas.forChat(tenant.ecosystemId, input.personaSlug)
      if (!persona) throw chatError(404, 'persona_not_found', 'No persona with this slug in the ecosystem')
      model ??= persona.model ?? undefined
    }
    const [row] = await this.deps.db
      .insert(conversations)
      .values({
        ownerId: tenant.ecosystemId,
        customerId: tenant.customerId,
        title: input.title || DEFAULT_TITLE,
        model: model ?? this.deps.llm.defaultModel,
        personaSlug: input.personaSlug ?? null,
      })
      .returning()
    return conversationView(row!)
  }

  async list(tenant: Tenant, page: PageParams) {
    const where = this.mine(tenant)
    return listPage(this.deps.db, conversations, where, [desc(conversations.createdAt), desc(conversations.id)], page, conversationView)
  }

  async detail(tenant: Tenant, id: string) {
    const conversation = await this.conversation(tenant, id)
    return { conversation: conversationView(conversation), messages: (await this.messagesOf(this.deps.db, conversation)).map(messageView) }
  }

  async rename(tenant: Tenant, id: string, title: string) {
    const [row] = await this.deps.db
      .update(conversations)
      .set({ title, updatedAt: this.deps.now() })
      .where(and(eq(conversations.id, id), this.mine(tenant)))
      .returning()
    if (!row) throw notFound()
    return conversationView(row)
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    const deleted = await this.deps.db
      .delete(conversations)
      .where(and(eq(conversations.id, id), this.mine(tenant)))
      .returning({ id: conversations.id })
    if (!deleted[0]) throw notFound()
  }

  /** Changes a user message and drops every message after it; the message then has no reply until regenerated. */
  async editMessage(tenant: Tenant, id: string, messageId: string, content: string) {
    const row = await this.deps.db.transaction(async (tx) => {
      const { conversation, history } = await this.lock(tx, tenant, id)
      const message = history.find((m) => m.id === messageId)
      if (!message) throw chatError(404, 'not_found', 'No such message in this conversation')
      if (message.role !== 'user') throw chatError(409, 'not_editable', 'Only user messages can be edited')
      this.assertIdle(history)
      await this.dropAfter(tx, conversation, message)
      await touchConversation(tx, conversation, this.deps.now())
      return this.updateUser(tx, message, { content, replyId: null, replyState: 'none' })
    })
    return messageView(row)
  }

  /**
   * Stores the user message and returns the events of its reply. Refusals (not found, 409) are
   * thrown here, before any event. The same `clientMessageId` again answers the stored reply.
   */
  async send(tenant: Tenant, id: string, input: { message: string; clientMessageId?: string }, signal: AbortSignal): Promise<AsyncGenerator<ChatEvent>> {
    const key = input.clientMessageId
    const call = this.turns.call()
    const outcome = await this.stored(call, async (tx) => {
      const { conversation, history, added } = await this.lock(tx, tenant, id, { content: input.message, clientMessageId: key ?? null })
      const repeated = key === undefined ? undefined : history.find((m) => m.clientMessageId === key)
      if (repeated) return { kind: 'repeat' as const, conversation, repeated }
      if (!added) throw new Error('chat.take_turn added no user message')
      // Refusals from here roll the added message back with the transaction.
      this.assertIdle(history)
      const target = await this.target(tx, conversation)
      // Counted with the message it allows: a refused or rolled-back send counts nothing.
      await this.reserveReply(tx, conversation)
      call.start(conversation, target, history, input.message)
      return { kind: 'turn' as const, user: added }
    })
    if (outcome.kind === 'repeat') return this.repeat(outcome.conversation, outcome.repeated, input.message)
    return this.turns.run(call, outcome.user, signal)
  }

  /** Drops the reply (and tool calls) after the last user message and streams a new one. */
  async regenerate(tenant: Tenant, id: string, signal: AbortSignal): Promise<AsyncGenerator<ChatEvent>> {
    const call = this.turns.call()
    const user = await this.stored(call, async (tx) => {
      const { conversation, history } = await this.lock(tx, tenant, id)
      this.assertIdle(history)
      const last = history.findLast((m) => m.role === 'user')
      if (!last) throw chatError(409, 'nothing_to_regenerate', 'The conversation has no user message to answer')
      const target = await this.target(tx, conversation)
      // A new reply counts like a sent message's, so an edit and a regenerate cannot pass the plan.
      await this.reserveReply(tx, conversation)
      call.start(
        conversation,
        target,
        history.filter((m) => m.seq < last.seq),
        last.content,
      )
      await this.dropAfter(tx, conversation, last)
      return this.updateUser(tx, last, { replyId: crypto.randomUUID(), replyState: 'streaming' })
    })
    return this.turns.run(call, user, signal)
  }

  /** Runs the transaction that stores a turn's user message; a model call it started stops when it fails. */
  private async stored<T>(call: TurnCall, store: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await this.deps.db.transaction(store)
    } catch (err) {
      call.cancel()
      throw err
    }
  }

  private async repeat(conversation: ConversationRow, user: MessageRow, message: string): Promise<AsyncGenerator<ChatEvent>> {
    if (user.content !== message) {
      throw chatError(409, 'client_message_id_reused', 'This clientMessageId was already used for a different message')
    }
    if (replyInProgress(user, this.deps.now())) throw chatError(409, 'in_progress', 'The reply to this message is still streaming')
    const [reply] = user.replyId
      ? await this.deps.db
          .select(messageColumns)
          .from(messages)
          .where(and(eq(messages.id, user.replyId), eq(messages.ownerId, conversation.ownerId)))
      : []
    return this.turns.replay(conversation, user, reply)
  }

  /** One `chat.messages` for a model reply about to stream, in the transaction that starts it (402 past the plan). */
  private reserveReply(tx: Db, conversation: ConversationRow): Promise<void> {
    return this.gate.require({ ecosystemId: conversation.ownerId, customerId: conversation.customerId, feature: CHAT_MESSAGES, amount: 1, reserve: true, tx })
  }

  /** The model service, model and prompt of a conversation: its persona's, else the default service. */
  private async target(tx: Db, conversation: ConversationRow): Promise<TurnTarget> {
    if (!conversation.personaSlug) return { client: this.deps.llm.fallback, model: conversation.model, personaId: null, systemPrompt: null }
    const persona = await this.personas.forChat(conversation.ownerId, conversation.personaSlug, tx)
    if (!persona) throw chatError(409, 'persona_unavailable', `The persona "${conversation.personaSlug}" of this conversation no longer exists`)
    return {
      client: persona.client ?? this.deps.llm.fallback,
      model: conversation.model,
      personaId: persona.id,
      systemPrompt: persona.systemPrompt || null,
    }
  }

  /**
   * Takes the caller's conversation's row lock for the transaction, so that turns of one
   * conversation are decided one at a time on every replica; returns it with its messages and,
   * given `message`, the user message added with a reply streaming (none when its
   * `clientMessageId` is already in the conversation). One call of `chat.take_turn`
   * (drizzle/0048_chat_take_turn.sql, 0049). 404 when it is not the caller's.
   */
  private async lock(
    tx: Db,
    tenant: Tenant,
    id: string,
    message?: { content: string; clientMessageId: string | null },
  ): Promise<{ conversation: ConversationRow; history: MessageRow[]; added?: MessageRow }> {
    const [row] = await queryRows<{ turn: TakenTurn | null }>(
      tx,
      sql`select chat.take_turn(${id}, ${tenant.ecosystemId}, ${tenant.customerId}, ${this.deps.now().toISOString()}, ${message?.content ?? null}, ${message?.clientMessageId ?? null}, ${message ? crypto.randomUUID() : null}) as turn`,
    )
    const turn = row?.turn
    if (!turn) throw notFound()
    const stored = turn.messages.map((m) => rowFromJson<MessageRow>(messageColumns, m))
    return {
      conversation: rowFromJson<ConversationRow>(conversationColumns, turn.conversation),
      history: stored.filter((m) => m.id !== turn.added),
      added: stored.find((m) => m.id === turn.added),
    }
  }

  /** 409 while a reply of the conversation is streaming (a mark its replica stopped refreshing does not count). */
  private assertIdle(history: MessageRow[]): void {
    const now = this.deps.now()
    if (history.some((m) => replyInProgress(m, now))) throw inProgress()
  }

  private async dropAfter(tx: Db, conversation: ConversationRow, message: MessageRow): Promise<void> {
    await tx
      .delete(messages)
      .where(and(eq(messages.conversationId, conversation.id), eq(messages.ownerId, conversation.ownerId), gt(messages.seq, message.seq)))
  }

  private async updateUser(tx: Db, message: MessageRow, patch: Pick<Partial<MessageRow>, 'content' | 'replyId' | 'replyState'>): Promise<MessageRow> {
    const [row] = await tx
      .update(messages)
      .set({ ...patch, updatedAt: this.deps.now() })
      .where(and(eq(messages.id, message.id), eq(messages.ownerId, message.ownerId)))
      .returning(messageColumns)
    return row!
  }

  private messagesOf(db: Db, conversation: ConversationRow): Promise<MessageRow[]> {
    return db
      .select(messageColumns)
      .from(messages)
      .where(and(eq(messages.conversationId, conversation.id), eq(messages.ownerId, conversation.ownerId)))
      .orderBy(asc(messages.seq))
  }

  private async conversation(tenant: Tenant, id: string): Promise<ConversationRow> {
    const [row] = await this.deps.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.id, id), this.mine(tenant)))
    if (!row) throw notFound()
    return row
  }

  private mine(tenant: Tenant) {
    return and(eq(conversations.ownerId, tenant.ecosystemId), eq(conversations.customerId, tenant.customerId))
  }
}

/** For the overview: customers' chat messages (their own turns, not the replies) per UTC day since `since`. */
export function userMessagesPerDay(db: Db, ecosystemId: string, since: Date) {
  return countPerDay(db, messages, messages.createdAt, and(eq(messages.ownerId, ecosystemId), eq(messages.role, 'user'), gte(messages.createdAt, since)))
}
