import type OpenAI from 'openai'
import type { ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import { type Fetch, OutboundRefused, OutboundUnresolved } from '../../platform/outbound'
import { lazyOpenAiClient, loadedOpenAiSdk } from '../openai-sdk'
import { type ServerSentEvent, SseDecoder } from './sse'
import { type ChatModel, type LlmEvent, type LlmMessage, type LlmModelInfo, type LlmRequest, type LlmToolCall, type LlmUsage, LlmError } from './types'

/**
 * Provider messages reach admins (connectError) and end users (the SSE `error` event). Some quote
 * the API key, partly masked ("Incorrect API key provided: sk-ab****wxyz"): drop anything key-like.
 */
export function redactKeys(text: string): string {
  return text.replace(/\b(?:sk|pk|rk|key|api|eco)[-_][\w*.…-]{3,}/gi, '[redacted]')
}

export interface OpenAiSettings {
  baseUrl: string
  apiKey: string | null
  /** Longest silence allowed: before the response starts and between two chunks. */
  idleTimeoutMs: number
  /** Absent: the global fetch. Tenant-chosen URLs get platform/outbound's guardedFetch (the outbound gate). */
  fetch?: Fetch
}

/** Any OpenAI-compatible chat-completions service (OpenAI, Ollama, OpenRouter, vLLM, ...), through the `openai` SDK. */
export class OpenAiChatModel implements ChatModel {
  readonly kind = 'openai' as const
  private readonly client: () => Promise<OpenAI>

  constructor(private readonly settings: OpenAiSettings) {
    this.client = lazyOpenAiClient({
      baseURL: settings.baseUrl,
      // The SDK refuses to start without a key; keyless services (Ollama) ignore it.
      apiKey: settings.apiKey ?? 'none',
      maxRetries: 0,
      fetch: settings.fetch,
      // The SDK would print unparsable chunks (user text) to the console.
      logLevel: 'off',
    })
  }

  async *stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
    const watch = new Watchdog(this.settings.idleTimeoutMs, request.signal)
    let finished = false
    try {
      // The SDK sends the request and turns a refusal into its APIError; the reply's events are read
      // here (SseDecoder): a burst of 2,000 tokens relays 1.6–1.8 times as fast as through the SDK's
      // Stream, and the first token is no later (bench/README.md, P4 session 66).
      const response = await (await this.client()).chat.completions
        .create(
          {
            model: request.model,
            messages: request.messages.map(toOpenAi),
            stream: true,
            // The token counts come as a last chunk without choices (traced as the model call's usage).
            stream_options: { include_usage: true },
            ...(request.tools?.length ? { tools: request.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
          },
          { signal: watch.signal },
        )
        .asResponse()
      const calls = new ToolCallAssembler()
      let reason: string | null = null
      let usage: LlmUsage | undefined
      for await (const chunk of chunksOf(response, watch)) {
        if (chunk?.usage) usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens }
        const choice = firstChoice(chunk)
        if (!choice) continue
        const content = choice.delta?.content
        if (typeof content === 'string' && content) yield { type: 'text', text: content }
        for (const delta of choice.delta?.tool_calls ?? []) calls.add(delta)
        if (choice.finish_reason) reason = choice.finish_reason
      }
      if (!reason) throw new LlmError('upstream', 'The model service ended the reply before finishing')
      for (const call of calls.complete()) yield { type: 'tool_call', call }
      finished = true
      yield { type: 'finish', reason, usage }
    } catch (err) {
      throw watch.explain(err)
    } finally {
      watch.dispose(!finished)
    }
  }

  async listModels(signal?: AbortSignal): Promise<LlmModelInfo[]> {
    const watch = new Watchdog(this.settings.idleTimeoutMs, signal)
    try {
      const page = await (await this.client()).models.list({ signal: watch.signal })
      return page.data.map((m) => ({ ...m }) as LlmModelInfo)
    } catch (err) {
      throw watch.explain(err)
    } finally {
      watch.dispose(true)
    }
  }
}

/** Aborts the upstream request when the caller aborts or when nothing arrives for `idleMs`. */
class Watchdog {
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined
  private timedOut = false
  private readonly onAbort = () => this.controller.abort()

  constructor(
    private readonly idleMs: number,
    private readonly caller?: AbortSignal,
  ) {
    if (caller?.aborted) this.controller.abort()
    caller?.addEventListener('abort', this.onAbort, { once: true })
    this.kick()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  kick(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timedOut = true
      this.controller.abort()
    }, this.idleMs)
  }

  throwIfStopped(): void {
    if (this.controller.signal.aborted) throw this.explain(null)
  }

  /** The LlmError for whatever ended the call, with a message fit for the end user. */
  explain(err: unknown): LlmError {
    if (err instanceof LlmError) return err
    if (this.timedOut) return new LlmError('timeout', `The model service sent nothing for ${this.idleMs / 1000} s`)
    if (this.caller?.aborted) return new LlmError('aborted', 'The request was cancelled')
    if (err instanceof SyntaxError) return new LlmError('malformed', 'The model service sent a malformed chunk')
    const OpenAI = loadedOpenAiSdk()
    // The SDK wraps whatever its fetch throws; a refusal says why, in words fit for the tenant.
    if (OpenAI && err instanceof OpenAI.APIConnectionError) {
      if (err.cause instanceof OutboundRefused) return new LlmError('upstream', err.cause.message)
      if (err.cause instanceof OutboundUnresolved) return new LlmError('upstream', `The model service cannot be reached: ${err.cause.message}`)
      return new LlmError('upstream', 'The model service cannot be reached')
    }
    if (OpenAI && err instanceof OpenAI.APIError) return upstreamError(err.status, err.error)
    return new LlmError('upstream', `The model service failed: ${redactKeys((err as Error)?.message ?? 'unknown error')}`)
  }

  dispose(abort: boolean): void {
    clearTimeout(this.timer)
    this.caller?.removeEventListener('abort', this.onAbort)
    if (abort) this.controller.abort()
  }
}

/** A refusal or an error object the service sent, with its message (keys redacted). */
function upstreamError(status: number | undefined, error: unknown): LlmError {
  const detail = error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined
  const text = typeof detail === 'string' && detail ? redactKeys(detail) : 'no details'
  return new LlmError('upstream', status ? `The model service answered ${status}: ${text}` : `The model service failed: ${text}`)
}

/** The reply's chunks, until `[DONE]` or its end; every read kicks the idle watch. */
async function* chunksOf(response: Response, watch: Watchdog): AsyncGenerator<ChatCompletionChunk> {
  if (!response.body) throw new LlmError('upstream', 'The model service sent an empty reply')
  const reader = response.body.getReader()
  const events = new SseDecoder()
  try {
    for (;;) {
      const read = await reader.read()
      // After an abort, a read may still hand over bytes that came before it, and the events of
      // one read may outlast it: none of them is the caller's any more.
      watch.throwIfStopped()
      if (read.done) return
      watch.kick()
      for (const event of events.push(read.value)) {
        if (event.data === '[DONE]') return
        yield parseChunk(event)
        watch.throwIfStopped()
      }
    }
  } finally {
    // Leaving before the end (a [DONE] with bytes after it, a failure) lets the connection go.
    reader.cancel().catch(() => undefined)
  }
}

/** A chunk of the reply; an `error` event or an error object in place of a chunk is the service's failure (as the SDK reads them). */
function parseChunk(event: ServerSentEvent): ChatCompletionChunk {
  let data: ({ error?: unknown } & ChatCompletionChunk) | null
  try {
    data = JSON.parse(event.data)
  } catch {
    throw new LlmError('malformed', 'The model service sent a malformed chunk')
  }
  if (event.event === 'error') throw upstreamError(undefined, data?.error ?? data)
  if (data?.error) throw upstreamError(undefined, data.error)
  return data as ChatCompletionChunk
}

function firstChoice(chunk: ChatCompletionChunk): ChatCompletionChunk.Choice | undefined {
  if (!chunk || typeof chunk !== 'object' || !Array.isArray(chunk.choices)) {
    throw new LlmError('malformed', 'The model service sent a chunk without choices')
  }
  return chunk.choices[0]
}

/** Tool calls arrive in pieces: `index`, `id` and `function.name` first, then argument fragments. */
class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>()

  add(delta: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const index = typeof delta.index === 'number' ? delta.index : 0
    const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' }
    if (delta.id) call.id = delta.id
    if (delta.function?.name) call.name += delta.function.name
    if (typeof delta.function?.arguments === 'string') call.arguments += delta.function.arguments
    this.calls.set(index, call)
  }

  complete(): LlmToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (!call.name) throw new LlmError('malformed', 'The model service sent a tool call without a name')
        return { id: call.id || `call_${index}`, name: call.name, arguments: call.arguments || '{}' }
      })
  }
}

function toOpenAi(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content }
    case 'assistant':
      return message.toolCalls?.length
        ? {
            role: 'assistant',
            content: message.content || null,
            tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
          }
        : { role: 'assistant', content: message.content }
    default:
      return { role: message.role, content: message.content }
  }
}
