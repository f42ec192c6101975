import type { Config } from '../../config'
import { guardedFetch, type OutboundMeter, type Resolver } from '../../platform/outbound'
import { DevChatModel } from './dev'
import { OpenAiChatModel } from './openai'
import type { ChatModel } from './types'

export * from './types'

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
   * A client for a persona service: any OpenAI-compatible base URL a tenant chose, reached through
   * the outbound gate (each request resolves the host once and connects to the address checked)
   * only at addresses PERSONA_SERVICE_PRIVATE_ADDRESSES allows, without following redirects.
   */
  forService(settings: ServiceSettings): ChatModel
}

export const OPENAI_BASE_URL = 'https://api.openai.com/v1'

/**
 * Chosen once from configuration: the OpenAI-compatible adapter when OPENAI_BASE_URL or
 * OPENAI_API_KEY is set, otherwise the built-in dev model. The operator's own service is trusted
 * (it may well be Ollama on localhost); persona services are not.
 */
export function createLlmProviders(
  config: Pick<Config, 'openai' | 'chat' | 'personaServices'>,
  options: { resolve?: Resolver; meter?: OutboundMeter } = {},
): LlmProviders {
  const idleTimeoutMs = config.chat.timeoutSeconds * 1000
  const tenantFetch = guardedFetch(config.personaServices.privateAddresses, { kind: 'persona_service', meter: options.meter, resolve: options.resolve })
  const { baseUrl, apiKey } = config.openai
  return {
    fallback: baseUrl || apiKey ? new OpenAiChatModel({ baseUrl: baseUrl ?? OPENAI_BASE_URL, apiKey, idleTimeoutMs }) : new DevChatModel(),
    defaultModel: config.chat.model,
    forService: (settings) => new OpenAiChatModel({ ...settings, idleTimeoutMs, fetch: tenantFetch }),
  }
}
