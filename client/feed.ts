import { stream, type StreamOptions } from './chat'
import type { Api, SiteFeedItem, SiteFeedStreamEvent } from './schema'

export type FeedItem = SiteFeedItem
/** A frame of the feed stream: a new item (with the `id` to resume from), or a keep-alive ping. */
export type FeedEvent = SiteFeedStreamEvent

/**
 * The site feed's live stream as an async iterator:
 *
 * ```ts
 * for await (const ev of client.feed.stream({ signal })) if (ev.event === 'item') show(ev.data.summary)
 * ```
 * Pass the last item's `id` as `lastEventId` after a disconnect to get what was written meanwhile.
 */
export function feedClient(api: Api) {
  return {
    async *stream(options: StreamOptions & { lastEventId?: string } = {}): AsyncGenerator<FeedEvent> {
      const headers = options.lastEventId ? { 'last-event-id': options.lastEventId } : undefined
      const frames = stream<FeedEvent>(() => api.site.feed.stream.get({ headers, fetch: { signal: options.signal } }), options.signal)
      // Eden parses a numeric `id:` as a number; it is an opaque string to send back.
      for await (const frame of frames) yield frame.event === 'item' && frame.id !== undefined ? { ...frame, id: String(frame.id) } : frame
    },
  }
}
