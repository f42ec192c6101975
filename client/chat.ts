import { apiError, thrown } from './errors'
import type { Api, ChatStreamEvent } from './schema'

/**
 * One frame of a chat turn's stream, discriminated by `event`: open, token, tool calls, done or
 * error. The server's `done` is empty; the client adds the stored reply's id (the
 * `assistantMessageId` of `open`) and its status, so the caller need not keep them.
 */
export type ChatEvent = Exclude<ChatStreamEvent, { event: 'done' }> | { event: 'done'; data: { messageId: string; status: 'complete' } }

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
 *   else if (ev.event === 'done') keep(ev.data.messageId)
 *   else if (ev.event === 'error') show(ev.data.message)
 * }
 * ```
 */
export function chatClient(api: Api) {
  const conversation = (id: string) => api.chat.conversations({ id })
  return {
    /** Sends a message and yields the reply's events (open, token…, tool calls, done or error). */
    send(conversationId: string, body: ChatBody, options: StreamOptions = {}): AsyncGenerator<ChatEvent> {
      return withReplyId(stream(() => conversation(conversationId).messages.post(body, { fetch: { signal: options.signal } }), options.signal))
    },
    /** Streams a new reply to the conversation's last user message. */
    regenerate(conversationId: string, options: StreamOptions = {}): AsyncGenerator<ChatEvent> {
      return withReplyId(stream(() => conversation(conversationId).regenerate.post(undefined, { fetch: { signal: options.signal } }), options.signal))
    },
  }
}

/** `done` as the caller wants it: with the id of the reply it completed (announced by `open`). The server sends `done` once the reply is stored. */
async function* withReplyId(events: AsyncGenerator<ChatStreamEvent>): AsyncGenerator<ChatEvent> {
  let messageId = ''
  for await (const ev of events) {
    if (ev.event === 'open') messageId = ev.data.assistantMessageId
    yield ev.event === 'done' ? { event: 'done', data: { messageId, status: 'complete' } } : ev
  }
}

/** An SSE route's parsed frames (`{ event, data, id? }`) as an async iterator; a refusal before streaming throws EcobaseError. */
export async function* stream<E>(
  request: () => Promise<{ data: AsyncGenerator<E> | unknown; error: { status: unknown; value: unknown } | null }>,
  signal: AbortSignal | undefined,
): AsyncGenerator<E> {
  try {
    const res = await request()
    const failure = apiError(res)
    if (failure) {
      if (signal?.aborted) return
      throw failure
    }
    // Eden answers an event stream with an async generator of parsed SSE frames, `{ event, data }`.
    yield* res.data as AsyncIterable<E>
  } catch (err) {
    if (signal?.aborted) return
    throw thrown(err)
  }
}
