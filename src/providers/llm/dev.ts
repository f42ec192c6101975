import { type ChatModel, type LlmEvent, type LlmModelInfo, type LlmRequest, LlmError } from './types'

export const DEV_MODEL = 'dev'

/**
 * The built-in development model: NOT a language model. It answers deterministically and offline
 * so the whole chat flow (streaming, tool calls, storage) works with nothing configured. When the
 * last user message names an offered tool it calls that tool once (with the first `{...}` in the
 * message as arguments), then reports the tool's answer; otherwise it echoes the message.
 */
export class DevChatModel implements ChatModel {
  readonly kind = 'dev' as const

  async *stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
    const last = request.messages.at(-1)
    if (last?.role === 'user') {
      const tool = request.tools?.find((t) => new RegExp(`\\b${t.name}\\b`).test(last.content))
      if (tool) {
        const args = /\{[^{}]*\}/.exec(last.content)?.[0] ?? '{}'
        yield { type: 'tool_call', call: { id: `call_dev_${request.messages.length}`, name: tool.name, arguments: args } }
        yield { type: 'finish', reason: 'tool_calls' }
        return
      }
    }
    for (const piece of words(replyTo(request))) {
      // Yield to the event loop between pieces, as a network stream would.
      await Promise.resolve()
      if (request.signal?.aborted) throw new LlmError('aborted', 'The request was cancelled')
      yield { type: 'text', text: piece }
    }
    yield { type: 'finish', reason: 'stop' }
  }

  async listModels(): Promise<LlmModelInfo[]> {
    return [{ id: DEV_MODEL, object: 'model', owned_by: 'ecobase', description: 'Built-in development model: deterministic echo, no AI' }]
  }
}

function replyTo(request: LlmRequest): string {
  const results: string[] = []
  for (let i = request.messages.length - 1; i >= 0 && request.messages[i]!.role === 'tool'; i--) {
    results.unshift(request.messages[i]!.content)
  }
  if (results.length) return `The tool answered: ${results.join(' ')}`
  const said = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''
  return `This is the development model (no AI configured). You said: ${said}`
}

/** Splits text into word-sized pieces that concatenate back to it exactly. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? []
}
