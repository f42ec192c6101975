import type { ChatEvent } from '../src/modules/chat/model'
import { apiError, type ApiError } from './errors'
import type { Api } from './api'

export type { ChatEvent } from '../src/modules/chat/model'

/** A chat request the server refused before streaming (404, 409 `in_progress`, …) or that never reached it. */
export class ChatRequestError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message || error.code)
    this.name = 'ChatRequestError'
  }
}

export interface StreamOptions {
  /** Aborting closes the stream: the server stops the model and keeps the partial reply. The iteration then ends quietly. */
  signal?: AbortSignal
}

type ChatBody = { message: string; clientMessageId?: string }

/**
 * Chat turns as async iterators of typed events, discriminated by `event`:
 *
 * ```ts
 * for await (const ev of client.chat.send(conversationId, { message: 'Hi' }, { signal })) {
 *   if (ev.event === 'token') append(ev.data.text)
 *   else if (ev.event === 'error') show(ev.data.message)
 * }
 * ```
 */
export function chatClient(api: Api) {
  const conversation = (id: string) => api.chat.conversations({ id })
  return {
    /** Sends a message and yields the reply's events (open, token…, tool calls, done or error). */
    send(conversationId: string, body: ChatBody, options: StreamOptions = {}): AsyncGenerator<ChatEvent> {
      return stream(() => conversation(conversationId).messages.post(body, { fetch: { signal: options.signal } }), options.signal)
    },
    /** Streams a new reply to the conversation's last user message. */
    regenerate(conversationId: string, options: StreamOptions = {}): AsyncGenerator<ChatEvent> {
      return stream(() => conversation(conversationId).regenerate.post(undefined, { fetch: { signal: options.signal } }), options.signal)
    },
  }
}

/** An SSE route's parsed frames (`{ event, data, id? }`) as an async iterator; a refusal before streaming throws ChatRequestError. */
export async function* stream<E = ChatEvent>(
  request: () => Promise<{ data: unknown; error: { status: unknown; value: unknown } | null }>,
  signal: AbortSignal | undefined,
): AsyncGenerator<E> {
  try {
    const res = await request()
    const failure = apiError(res)
    if (failure) {
      if (signal?.aborted) return
      throw new ChatRequestError(failure)
    }
    // Eden types `data` as the response schema (one event); at run time it is its async
    // generator of parsed SSE frames, `{ event, data }`, which is exactly the event type.
    yield* res.data as AsyncIterable<E>
  } catch (err) {
    if (signal?.aborted) return
    throw err
  }
}
