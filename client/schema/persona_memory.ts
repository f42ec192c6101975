// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface PersonaMemory {
  id: string
  personaId: string
  scope: "user" | "persona"
  slug: string
  memoryType: "user" | "feedback" | "project" | "reference"
  description: string
  body: string
  /** Integer 0 to 100 */
  confidence: number
  tags: string[]
  /** Ecosystem id */
  ownerId: string
  /** Owning customer; empty for a global (`persona`) memory */
  customerId: string
  deletedAt?: string | null
  subjectTable?: string | null
  subjectId?: string | null
  status: "active" | "superseded" | "archived"
  /** The memory this one replaced */
  supersedesId?: string | null
  source: "inferred" | "user_stated" | "tool"
  /** Recalled only from this instant on */
  validFrom?: string | null
  /** Recalled only before this instant */
  validTo?: string | null
  /** How many recalls returned it */
  recallCount: number
  lastRecalledAt?: string | null
  /** Model of its embedding; null while waiting for the embed backfill */
  embeddingModel?: string | null
  createdAt: string
  updatedAt: string
}

export interface PersonaMemoryPage {
  items: PersonaMemory[]
  total: number
  page: number
  pageSize: number
}

export interface PersonaMemoryCreate {
  personaId: string
  scope: "user" | "persona"
  /** Short key, unique among the active memories of one owner (the customer, or the persona for global ones) */
  slug: string
  memoryType: "user" | "feedback" | "project" | "reference"
  /** One line saying what this memory is; embedded with the body */
  description: string
  body: string
  /** Table of a record this memory is about */
  subjectTable?: string | null
  /** Id of that record */
  subjectId?: string | null
  source?: "inferred" | "user_stated" | "tool"
  /** Integer 0 to 100 (default 100) */
  confidence?: number
  /** Up to 32 tags (duplicates are dropped) */
  tags?: string[]
  /** Recalled only from this instant on (inclusive) */
  validFrom?: string | null
  /** Recalled only before this instant (exclusive); after validFrom */
  validTo?: string | null
  /** An active memory of the same persona and scope that this one replaces; it becomes `superseded` in the same transaction */
  supersedesId?: string
}

export interface PersonaMemoryPatch {
  /** Short key, unique among the active memories of one owner (the customer, or the persona for global ones) */
  slug?: string
  memoryType?: "user" | "feedback" | "project" | "reference"
  /** One line saying what this memory is; embedded with the body */
  description?: string
  body?: string
  /** Table of a record this memory is about */
  subjectTable?: string | null
  /** Id of that record */
  subjectId?: string | null
  source?: "inferred" | "user_stated" | "tool"
  /** Integer 0 to 100 */
  confidence?: number
  /** Up to 32 tags (duplicates are dropped) */
  tags?: string[]
  /** Recalled only from this instant on (inclusive) */
  validFrom?: string | null
  /** Recalled only before this instant (exclusive); after validFrom */
  validTo?: string | null
}

export interface PersonaMemoryRecall {
  personaId: string
  query: string
  /** At most this many memories (default 8, max 50) */
  limit?: number
  /** Leave out memories less similar than this */
  minSimilarity?: number
  /** Only these memory types */
  memoryTypes?: ("user" | "feedback" | "project" | "reference")[]
  /** Only memories carrying at least one of these tags */
  tags?: string[]
}

export interface PersonaMemoryMatch {
  id: string
  personaId: string
  scope: "user" | "persona"
  slug: string
  memoryType: "user" | "feedback" | "project" | "reference"
  description: string
  body: string
  /** Integer 0 to 100 */
  confidence: number
  tags: string[]
  /** Cosine similarity with the query, negatives clamped to 0 */
  similarity: number
}

export interface PersonaMemoryRecallResult {
  memories: PersonaMemoryMatch[]
}

export interface PersonaMemoryEmbed {
  /** Rows to handle in this call (default 100, max 500) */
  limit?: number
}

export interface PersonaMemoryEmbedResult {
  /** Rows embedded by this call */
  embedded: number
  /** Rows that failed; they are retried on the next call */
  failed: number
  /** The batch filled `limit`: call again */
  more: boolean
}

/** The routes under /persona_memory. */
export interface PersonaMemoryRoutes {
  memories: ((params: { id: string | number }) => {
    /** One memory */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Edit a memory */
    patch(body?: PersonaMemoryPatch, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a memory (soft delete) */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    archive: {
      /** Archive a memory (no longer recalled) */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
    restore: {
      /** Restore an archived memory */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Memories the caller sees, newest first */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; personaId?: string; scope?: "user" | "persona"; status?: "active" | "superseded" | "archived"; memoryType?: "user" | "feedback" | "project" | "reference"; tag?: string; subjectTable?: string; subjectId?: string }>): Promise<Result<{ 200: PersonaMemoryPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Remember something */
    post(body: PersonaMemoryCreate, options?: RequestOptions<never>): Promise<Result<{ 201: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  recall: {
    /** The memories most similar to a query */
    post(body: PersonaMemoryRecall, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemoryRecallResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody; 503: ErrorBody }>>
  }
  embed: {
    /** Embed memories waiting for an embedding */
    post(body?: PersonaMemoryEmbed, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemoryEmbedResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
