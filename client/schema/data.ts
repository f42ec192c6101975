// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface DataDocument {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  title: string
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface DataDocumentsPage {
  items: DataDocument[]
  total: number
  page: number
  pageSize: number
}

export interface DataDocumentCreate {
  title: string
}

export interface DataDocumentPatch {
  title?: string
}

export interface DataDocumentBlock {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  documentId: string
  blockType: string
  position: string
  content: string
}

export interface DataDocumentBlocksPage {
  items: DataDocumentBlock[]
  total: number
  page: number
  pageSize: number
}

export interface DataDocumentBlockCreate {
  documentId: string
  blockType: "paragraph" | "heading" | "list_item" | "code" | "quote"
  /** Sorts byte-wise (0-9 < A-Z < a-z): to insert between two blocks, pick a string between their positions (fractional indexing), no renumbering */
  position: string
  content?: string
}

export interface DataDocumentBlockPatch {
  blockType?: "paragraph" | "heading" | "list_item" | "code" | "quote"
  /** Sorts byte-wise (0-9 < A-Z < a-z): to insert between two blocks, pick a string between their positions (fractional indexing), no renumbering */
  position?: string
  content?: string
}

/** The routes under /data. */
export interface DataRoutes {
  documents: ((params: { id: string | number }) => {
    /** One of documents */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of documents */
    patch(body?: DataDocumentPatch, options?: RequestOptions<never>): Promise<Result<{ 200: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete one of documents */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List documents */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; title?: string; createdAt?: string; updatedAt?: string }>): Promise<Result<{ 200: DataDocumentsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of documents */
    post(body: DataDocumentCreate, options?: RequestOptions<never>): Promise<Result<{ 201: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  document_blocks: ((params: { id: string | number }) => {
    /** One of document blocks */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of document blocks */
    patch(body?: DataDocumentBlockPatch, options?: RequestOptions<never>): Promise<Result<{ 200: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete one of document blocks */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List document blocks */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; documentId?: string; blockType?: string; createdAt?: string }>): Promise<Result<{ 200: DataDocumentBlocksPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of document blocks */
    post(body: DataDocumentBlockCreate, options?: RequestOptions<never>): Promise<Result<{ 201: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
