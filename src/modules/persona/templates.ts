/** Built-in starting points for persona services; every one speaks the OpenAI chat-completions protocol. */
export const SERVICE_TEMPLATES = [
  {
    id: 'openai',
    providerKind: 'openai',
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    requiresApiKey: true,
    documentationUrl: 'https://platform.openai.com/docs/api-reference/chat',
    statusUrl: 'https://status.openai.com',
  },
  {
    id: 'ollama',
    providerKind: 'ollama',
    name: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    requiresApiKey: false,
    documentationUrl: 'https://github.com/ollama/ollama/blob/main/docs/openai.md',
    statusUrl: null,
  },
  {
    id: 'openrouter',
    providerKind: 'openrouter',
    name: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    requiresApiKey: true,
    documentationUrl: 'https://openrouter.ai/docs',
    statusUrl: 'https://status.openrouter.ai',
  },
  {
    id: 'openai_compatible',
    providerKind: 'openai_compatible',
    name: 'OpenAI-compatible service',
    baseUrl: null,
    requiresApiKey: false,
    documentationUrl: 'https://platform.openai.com/docs/api-reference/chat/create',
    statusUrl: null,
  },
] as const

export type ServiceTemplate = (typeof SERVICE_TEMPLATES)[number]

export function findTemplate(id: string): ServiceTemplate | undefined {
  return SERVICE_TEMPLATES.find((t) => t.id === id)
}
