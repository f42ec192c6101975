// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface RealtimeTicket {
  /** Pass as `?ticket=` to one stream request */
  ticket: string
  /** 60 s from now */
  expiresAt: string
}

export interface RealtimeChange {
  /** The topic the row belongs to (without a `:` suffix) */
  topic: string
  op: "insert" | "update" | "delete" | "leave"
  /** The row’s id */
  id: string
  /** The row exactly as the topic’s list route returns it; absent on delete and leave */
  record?: {
    [key: string]: unknown
  }
  /** When the writing transaction started (ISO 8601) */
  at: string
}

/** Server-sent events (text/event-stream); a `: ping` comment every 15 s of silence */
export type RealtimeStreamEvent = {
  event: "ready"
  /** The cursor: send it back as Last-Event-ID (or `since`) to resume from here */
  id: string
  data: {
    cursor: string
  }
} | {
  event: "change"
  /** The cursor: send it back as Last-Event-ID (or `since`) to resume from here */
  id: string
  data: RealtimeChange
} | {
  event: "reset"
  /** The cursor: send it back as Last-Event-ID (or `since`) to resume from here */
  id: string
  data: {
    reason: "expired" | "overflow" | "unknown_cursor"
  }
} | {
  event: "error"
  data: {
    code: "unauthorized" | "token_expired"
    message: string
  }
} | {
  event: "shutdown"
  /** Milliseconds to wait before reconnecting */
  retry: number
  data: {
    message: string
  }
}

/** The routes under /realtime. */
export interface RealtimeRoutes {
  tickets: {
    /** A single-use ticket to open one stream without a header */
    post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: RealtimeTicket; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  stream: {
    /** Changes to lists, live */
    get(options: RequestOptions<{ topics: string; since?: string; ticket?: string }> & { query: { topics: string; since?: string; ticket?: string } }): Promise<Result<{ 200: AsyncGenerator<RealtimeStreamEvent>; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
