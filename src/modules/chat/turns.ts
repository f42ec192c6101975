import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { and, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import type { EventBus } from '../../platform/events'
import { chatMessageCompleted } from './events'
import { ATTR, startChildSpan } from '../../platform/tracing'
import { type ChatModel, type LlmEvent, type LlmMessage, type LlmRequest, type LlmToolCall, type LlmToolSpec, LlmError } from '../../providers/llm'
import { type ConversationRow, type MessageRow, toLlmMessages } from './history'
import type { ChatEvent } from './model'
import { conversations, type MessageStatus, messages } from './schema'
import type { ToolContext, ToolOutcome, ToolRegistry } from './tools/registry'

/** A replica streaming a reply touches its user message this often... */
const HEARTBEAT_MS = 5_000
/** ...so a `streaming` mark older than this was left by a replica that died: it no longer blocks. */
const STALE_AFTER_MS = 30_000
/** Model calls with tools offered per turn; one more without tools then forces an answer. */
const MAX_TOOL_ROUNDS = 4

/**
 * Lets the frames yielded so far reach the client before work that holds the thread: embedded
 * PGlite runs each query on this thread, and Bun writes a stream's chunks only when its event loop
 * turns, so a reply's last tokens waited for their own storage (bench/README.md, P4: ≈ 2 ms).
 */
const letFramesOut = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** Which model answers a conversation, and as whom. */
export interface TurnTarget {
  client: ChatModel
  model: string
  personaId: string | null
  systemPrompt: string | null
}

/** What a started turn runs on: the model's input and tools, and its first call's events. */
interface StartedCall {
  conversation: ConversationRow
  target: TurnTarget
  input: LlmMessage[]
  context: ToolContext
  tools: LlmToolSpec[]
  events: AsyncGenerator<LlmEvent>
}

/**
 * A turn's first model call, started inside the transaction that stores its user message once
 * nothing can refuse the turn any more: the upstream then works while that transaction writes and
 * commits (bench/README.md, P4). Made before the transaction, so that a failed one can `cancel` it.
 */
export class TurnCall {
  /** Aborted when the turn ends, the client goes away, or the transaction fails. */
  readonly upstream = new AbortController()
  private opened?: StartedCall
  private source?: AsyncGenerator<LlmEvent>

  constructor(
    private readonly tools: ToolRegistry,
    private readonly now: () => Date,
  ) {}

  /** Starts the model on `rows` (the messages before the user message) followed by the user's `text`. */
  start(conversation: ConversationRow, target: TurnTarget, rows: MessageRow[], text: string): void {
    const input = toLlmMessages(rows, target.systemPrompt)
    input.push({ role: 'user', content: text })
    const context: ToolContext = {
      tenant: { ecosystemId: conversation.ownerId, customerId: conversation.customerId },
      conversationId: conversation.id,
      personaId: target.personaId,
      now: this.now,
      signal: this.upstream.signal,
    }
    const tools = this.tools.specs(context)
    this.source = modelCall(target, { model: target.model, messages: input, tools, signal: this.upstream.signal })
    this.opened = { conversation, target, input, context, tools, events: startNow(this.source) }
  }

  /** The started call; the turn runs only after `start`. */
  get started(): StartedCall {
    if (!this.opened) throw new Error('The turn was not started')
    return this.opened
  }

  /** Stops the model call: its user message was not stored. */
  cancel(): void {
    this.upstream.abort()
    void this.source?.return(undefined).catch(() => undefined)
  }
}

/** Runs a generator's first step now (an upstream request under way), and returns the generator from there. */
function startNow<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  const first = source.next()
  first.catch(() => undefined)
  return (async function* () {
    const step = await first
    if (step.done) return
    yield step.value
    yield* source
  })()
}

/**
 * Moves a conversation's `updatedAt`, in the transaction that stores a change in it: a turn's reply,
 * an edit (taking its lock does not, drizzle/0049).
 */
export async function touchConversation(tx: Db, conversation: Pick<ConversationRow, 'id' | 'ownerId'>, now: Date): Promise<void> {
  await tx
    .update(conversations)
    .set({ updatedAt: now })
    .where(and(eq(conversations.id, conversation.id), eq(conversations.ownerId, conversation.ownerId)))
}

export function replyInProgress(user: MessageRow, now: Date): boolean {
  return user.replyState === 'streaming' && now.getTime() - user.updatedAt.getTime() < STALE_AFTER_MS
}

/** Streams one chat turn: model output and tool calls out as events, the reply into the database. */
export class TurnRunner {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'logger' | 'now'>,
    private readonly tools: ToolRegistry,
    private readonly events: Pick<EventBus, 'emit'>,
  ) {}

  /** A turn to `start` in the transaction that stores its user message, then to `run`. */
  call(): TurnCall {
    return new TurnCall(this.tools, this.deps.now)
  }

  /**
   * The events of a started turn whose user message is stored. `signal` is the client's connection:
   * when it goes away the upstream request is aborted and the text so far is stored as a `partial`
   * reply. Never throws.
   */
  async *run(call: TurnCall, user: MessageRow, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    const { conversation, target, input, context } = call.started
    const turn = { conversation, user }
    const stop = () => call.upstream.abort()
    signal.addEventListener('abort', stop, { once: true })
    if (signal.aborted) stop()
    const heartbeat = setInterval(() => void this.touch(user), HEARTBEAT_MS)
    let text = ''
    let status: MessageStatus = 'partial'
    let error: string | null = null
    let stored = false
    try {
      yield { event: 'open', data: { conversationId: conversation.id, userMessageId: user.id, assistantMessageId: user.replyId! } }
      for (let round = 0; ; round++) {
        const calls: LlmToolCall[] = []
        let roundText = ''
        const tools = round === 0 ? call.started.tools : round < MAX_TOOL_ROUNDS ? this.tools.specs(context) : []
        const events = round === 0 ? call.started.events : modelCall(target, { model: target.model, messages: input, tools, signal: call.upstream.signal })
        for await (const event of events) {
          if (event.type === 'text') {
            text += event.text
            roundText += event.text
            yield { event: 'token', data: { text: event.text } }
          } else if (event.type === 'tool_call') calls.push(event.call)
        }
        if (calls.length === 0 || tools.length === 0) break
        input.push({ role: 'assistant', content: roundText, toolCalls: calls })
        for (const toolCall of calls) {
          yield { event: 'tool_call_started', data: { name: toolCall.name, arguments: toolCall.arguments } }
          await letFramesOut()
          const outcome = await this.tools.call(toolCall, context)
          await this.storeTool(conversation, toolCall, outcome)
          input.push({ role: 'tool', toolCallId: toolCall.id, content: outcome.result })
          yield { event: 'tool_call_completed', data: { name: toolCall.name, ok: outcome.ok, result: outcome.result } }
        }
      }
      status = 'complete'
      // Stored before `done` is sent, so that a client can fetch the reply as soon as it sees `done`.
      stored = true
      clearInterval(heartbeat)
      await letFramesOut()
      await this.finish(turn, text, status, error)
      yield { event: 'done', data: {} }
    } catch (err) {
      if (signal.aborted) return
      status = 'failed'
      error = err instanceof LlmError ? err.message : 'The reply failed'
      if (!(err instanceof LlmError))
        this.deps.logger.error('chat turn failed', { conversationId: conversation.id, error: String((err as Error)?.stack ?? err) })
      yield { event: 'error', data: { message: error } }
    } finally {
      clearInterval(heartbeat)
      signal.removeEventListener('abort', stop)
      call.cancel()
      if (!stored) await this.finish(turn, text, status, error)
    }
  }

  /** A repeated send (same clientMessageId) of a finished turn: the stored reply as events. */
  async *replay(conversation: ConversationRow, user: MessageRow, reply: MessageRow | undefined): AsyncGenerator<ChatEvent> {
    yield { event: 'open', data: { conversationId: conversation.id, userMessageId: user.id, assistantMessageId: reply?.id ?? user.replyId ?? user.id } }
    if (reply?.content) yield { event: 'token', data: { text: reply.content } }
    if (reply?.status === 'complete') {
      yield { event: 'done', data: {} }
      return
    }
    const message = !reply
      ? 'This message has no stored reply (it was edited, or its reply was interrupted); regenerate one'
      : reply.status === 'failed'
        ? (reply.error ?? 'The reply failed')
        : 'The reply was cut short when the client disconnected; regenerate for a full reply'
    yield { event: 'error', data: { message } }
  }

  private async storeTool(conversation: ConversationRow, call: LlmToolCall, outcome: ToolOutcome): Promise<void> {
    await this.deps.db.insert(messages).values({
      conversationId: conversation.id,
      ownerId: conversation.ownerId,
      customerId: conversation.customerId,
      role: 'tool',
      content: outcome.result,
      status: outcome.ok ? 'complete' : 'failed',
      toolName: call.name,
      toolCallId: call.id,
      toolArguments: call.arguments,
    })
  }

  /** Stores the reply and releases the turn. A conversation deleted meanwhile takes the reply with it. */
  private async finish(turn: { conversation: ConversationRow; user: MessageRow }, text: string, status: MessageStatus, error: string | null): Promise<void> {
    const { conversation, user } = turn
    const now = this.deps.now()
    try {
      await this.deps.db.transaction(async (tx) => {
        await tx.insert(messages).values({
          id: user.replyId!,
          conversationId: conversation.id,
          ownerId: conversation.ownerId,
          customerId: conversation.customerId,
          role: 'assistant',
          content: text,
          status,
          error,
        })
        await tx
          .update(messages)
          .set({ replyState: 'done', updatedAt: now })
          .where(and(eq(messages.id, user.id), eq(messages.ownerId, user.ownerId)))
        await touchConversation(tx, conversation, now)
        await this.events.emit(tx, chatMessageCompleted, conversation.ownerId, {
          customerId: conversation.customerId,
          conversationId: conversation.id,
          messageId: user.replyId!,
          status,
        })
      })
    } catch (err) {
      this.deps.logger.warn('chat reply not stored', { conversationId: conversation.id, error: String((err as Error)?.message ?? err) })
    }
  }

  private async touch(user: MessageRow): Promise<void> {
    try {
      await this.deps.db
        .update(messages)
        .set({ updatedAt: this.deps.now() })
        .where(and(eq(messages.id, user.id), eq(messages.ownerId, user.ownerId), eq(messages.replyState, 'streaming')))
    } catch (err) {
      this.deps.logger.warn('chat heartbeat failed', { error: String((err as Error)?.message ?? err) })
    }
  }
}

/**
 * One call of the model, traced (inside a traced request) as a GenAI client span: the model's name
 * and, when the service reports them, the tokens in and out; never the messages.
 */
async function* modelCall(target: TurnTarget, request: LlmRequest): AsyncGenerator<LlmEvent> {
  const span = startChildSpan(`chat ${target.model}`, SpanKind.CLIENT, {
    [ATTR.genAiOperation]: 'chat',
    [ATTR.genAiProvider]: target.client.kind,
    [ATTR.genAiRequestModel]: target.model,
  })
  try {
    for await (const event of target.client.stream(request)) {
      if (event.type === 'finish' && event.usage) {
        span?.setAttributes({ [ATTR.genAiInputTokens]: event.usage.inputTokens, [ATTR.genAiOutputTokens]: event.usage.outputTokens })
      }
      yield event
    }
  } catch (err) {
    span?.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof LlmError ? err.kind : 'error' })
    throw err
  } finally {
    span?.end()
  }
}
