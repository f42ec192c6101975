// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface ChatConversationCreate {
  /** Default: "New conversation" */
  title?: string
  /** Default: the persona's model, else CHAT_MODEL */
  model?: string
  /** A persona of the ecosystem; its prompt and service are used */
  personaSlug?: string
}

export interface ChatConversation {
  id: string
  title: string
  /** Model the replies come from; `dev` is the built-in development model (a deterministic echo, not an AI) */
  model: string
  personaSlug: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface ChatConversationPage {
  items: ChatConversation[]
  total: number
  page: number
  pageSize: number
}

export interface ChatMessage {
  id: string
  /** `user`, `assistant` or `tool` */
  role: string
  /** Text; for a tool message, the JSON-encoded tool result */
  content: string
  toolName: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** `complete`; `partial`: the client disconnected before the reply finished (the text so far is kept); `failed`: the model service failed (a reply) or the call failed (a tool message) */
  status: string
}

export interface ChatConversationDetail {
  conversation: ChatConversation
  /** Oldest first */
  messages: ChatMessage[]
}

export interface ChatConversationRename {
  title: string
}

export interface ChatMessageEdit {
  content: string
}

export interface ChatSendMessage {
  message: string
  /** Idempotency key for the user message, unique within the conversation */
  clientMessageId?: string
}

/** Server-sent events (text/event-stream); each frame is `event: <name>` and `data: <JSON>`, as one of these */
export type ChatStreamEvent = {
  event: "open"
  data: {
    conversationId: string
    userMessageId: string
    assistantMessageId: string
  }
} | {
  event: "token"
  data: {
    text: string
  }
} | {
  event: "tool_call_started"
  data: {
    name: string
    /** JSON-encoded tool arguments */
    arguments: string
  }
} | {
  event: "tool_call_completed"
  data: {
    name: string
    ok: boolean
    /** JSON-encoded tool result */
    result: string
  }
} | {
  event: "done"
  data: Record<string, never>
} | {
  event: "error"
  data: {
    message: string
  }
}

/** The routes under /chat. */
export interface ChatRoutes {
  conversations: ((params: { id: string | number }) => {
    /** A conversation with its messages */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: ChatConversationDetail; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename a conversation */
    patch(body: ChatConversationRename, options?: RequestOptions<never>): Promise<Result<{ 200: ChatConversation; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a conversation */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    messages: ((params: { messageId: string | number }) => {
      /** Edit a user message */
      patch(body: ChatMessageEdit, options?: RequestOptions<never>): Promise<Result<{ 200: ChatMessage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }) & {
      /** Send a message and stream the reply */
      post(body: ChatSendMessage, options?: RequestOptions<never>): Promise<Result<{ 200: AsyncGenerator<ChatStreamEvent>; 400: ErrorBody; 401: ErrorBody; 402: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
    regenerate: {
      /** Stream a new reply to the last user message */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: AsyncGenerator<ChatStreamEvent>; 400: ErrorBody; 401: ErrorBody; 402: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Start a conversation */
    post(body?: ChatConversationCreate, options?: RequestOptions<never>): Promise<Result<{ 201: ChatConversation; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Conversations, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: ChatConversationPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
