// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface SearchChatMessageResult {
  messageId: string
  conversationId: string
  conversationTitle: string
  role: "user" | "assistant"
  /** Plain-text excerpt around the matched words, with no markup */
  snippet: string
  /** ISO 8601 UTC */
  createdAt: string
  /** Full-text relevance score; higher is better */
  rank: number
}

export interface SearchChatMessagePage {
  items: SearchChatMessageResult[]
  total: number
  page: number
  pageSize: number
}

export interface SearchSettings {
  language: "english" | "simple"
}

export interface SearchDiscussionThreadResult {
  id: string
  title: string
  body: string
  authorId: string
  categoryId: string
  createdAt: string
  /** Full-text relevance score; higher is better */
  rank: number
}

export interface SearchDiscussionThreadPage {
  items: SearchDiscussionThreadResult[]
  total: number
  page: number
  pageSize: number
}

export interface SearchDiscussionReplyResult {
  id: string
  threadId: string
  body: string
  authorId: string
  createdAt: string
  /** Full-text relevance score; higher is better */
  rank: number
}

export interface SearchDiscussionReplyPage {
  items: SearchDiscussionReplyResult[]
  total: number
  page: number
  pageSize: number
}

export interface SearchDocumentResult {
  blockId: string
  documentId: string
  blockType: string
  position: string
  /** Plain-text excerpt around the match, no markup */
  snippet: string
  /** Full-text relevance score; higher is better */
  rank: number
}

export interface SearchDocumentPage {
  items: SearchDocumentResult[]
  total: number
  page: number
  pageSize: number
}

export interface SearchNoteResult {
  id: string
  customerId: string
  ownerId: string
  title: string
  body: string
  occurredAt: string
  createdAt: string
  updatedAt: string
  deletedAt?: string | null
  subjectTable?: string | null
  subjectId?: string | null
  /** Full-text relevance score; higher is better */
  rank: number
}

export interface SearchNotePage {
  items: SearchNoteResult[]
  total: number
  page: number
  pageSize: number
}

/** The routes under /search. */
export interface SearchRoutes {
  chat: {
    messages: {
      /** Full-text search of the caller's chat messages */
      get(options: RequestOptions<{ q: string; page?: number; pageSize?: number }> & { query: { q: string; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchChatMessagePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }
  settings: {
    /** The ecosystem’s search defaults */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SearchSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change the ecosystem’s search defaults */
    put(body: SearchSettings, options?: RequestOptions<never>): Promise<Result<{ 200: SearchSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  threads: {
    /** Full-text search of community threads (title and body) */
    get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDiscussionThreadPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  replies: {
    /** Full-text search of community replies */
    get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDiscussionReplyPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  documents: {
    /** Full-text search of document blocks */
    get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDocumentPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  notes: {
    /** Full-text search of the caller's notes (title and body) */
    get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchNotePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
