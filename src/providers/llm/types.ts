/** The chat-model contract the adapters implement (kept apart from index.ts, which builds them). */

export interface LlmToolCall {
  id: string
  name: string
  /** JSON text, as the model wrote it (not yet validated). */
  arguments: string
}

export type LlmMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: LlmToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string }

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface LlmToolSpec {
  name: string
  description: string
  parameters: Record<string, unknown>
}

/** Tokens a completion took, when the service reports them. */
export interface LlmUsage {
  inputTokens: number
  outputTokens: number
}

/** What a streamed completion produces: text pieces, then complete tool calls, then one `finish` (with the usage, when reported). */
export type LlmEvent = { type: 'text'; text: string } | { type: 'tool_call'; call: LlmToolCall } | { type: 'finish'; reason: string; usage?: LlmUsage }

export interface LlmRequest {
  model: string
  messages: LlmMessage[]
  tools?: LlmToolSpec[]
  /** Aborting stops the upstream request; the stream then rejects with LlmError `aborted`. */
  signal?: AbortSignal
}

/** A model descriptor as the service lists it (`id` plus whatever else it reports). */
export type LlmModelInfo = { id: string } & Record<string, unknown>

/**
 * A chat-completion service. Every adapter passes tests/providers/llm.contract.test.ts.
 * Failures reject with LlmError; nothing else escapes.
 */
export interface ChatModel {
  readonly kind: 'openai' | 'dev'
  stream(request: LlmRequest): AsyncIterable<LlmEvent>
  listModels(signal?: AbortSignal): Promise<LlmModelInfo[]>
}

export type LlmErrorKind = 'timeout' | 'upstream' | 'malformed' | 'aborted'

/** A failed model call; `message` is safe to show to the end user (never carries credentials). */
export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
  ) {
    super(message)
  }
}
