import type { Config } from '../../config'
import { guardedFetch } from '../../platform/outbound'
import { DevChatModel } from './dev'
import { OpenAiChatModel } from './openai'

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

/** What a streamed completion produces: text pieces, then complete tool calls, then one `finish`. */
export type LlmEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: LlmToolCall }
  | { type: 'finish'; reason: string }

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

export interface ServiceSettings {
  baseUrl: string
  apiKey: string | null
}

export interface LlmProviders {
  /** The service used when a conversation's persona names none: OPENAI_* from the environment, else the dev model. */
  readonly fallback: ChatModel
  /** The model conversations get by default (CHAT_MODEL; `dev` for the development model). */
  readonly defaultModel: string
  /**
   * A client for a persona service: any OpenAI-compatible base URL a tenant chose, reached only
   * at addresses PERSONA_SERVICE_PRIVATE_ADDRESSES allows, without following redirects.
   */
  forService(settings: ServiceSettings): ChatModel
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'

/**
 * Chosen once from configuration: the OpenAI-compatible adapter when OPENAI_BASE_URL or
 * OPENAI_API_KEY is set, otherwise the built-in dev model. The operator's own service is trusted
 * (it may well be Ollama on localhost); persona services are not.
 */
export function createLlmProviders(config: Pick<Config, 'openai' | 'chat' | 'personaServices'>): LlmProviders {
  const idleTimeoutMs = config.chat.timeoutSeconds * 1000
  const tenantFetch = guardedFetch(config.personaServices.privateAddresses)
  const { baseUrl, apiKey } = config.openai
  return {
    fallback: baseUrl || apiKey ? new OpenAiChatModel({ baseUrl: baseUrl ?? OPENAI_BASE_URL, apiKey, idleTimeoutMs }) : new DevChatModel(),
    defaultModel: config.chat.model,
    forService: (settings) => new OpenAiChatModel({ ...settings, idleTimeoutMs, fetch: tenantFetch }),
  }
}
