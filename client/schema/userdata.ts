// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface UserdataNote {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  title: string
  body: string
  /** ISO 8601, UTC */
  occurredAt: string
  subjectTable: string | null
  subjectId: string | null
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface UserdataNotesPage {
  items: UserdataNote[]
  total: number
  page: number
  pageSize: number
}

export interface UserdataNoteCreate {
  title: string
  body?: string
  /** When it happened (default: now) */
  occurredAt?: string
  subjectTable?: (string | null) | null
  subjectId?: (string | null) | null
}

export interface UserdataNotePatch {
  title?: string
  body?: string
  /** When it happened (default: now) */
  occurredAt?: string
  subjectTable?: (string | null) | null
  subjectId?: (string | null) | null
}

/** The routes under /userdata. */
export interface UserdataRoutes {
  notes: ((params: { id: string | number }) => {
    /** One of notes */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of notes */
    patch(body?: UserdataNotePatch, options?: RequestOptions<never>): Promise<Result<{ 200: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete one of notes */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List notes */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; subjectTable?: string; subjectId?: string; occurredAt?: string; createdAt?: string; title?: string }>): Promise<Result<{ 200: UserdataNotesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of notes */
    post(body: UserdataNoteCreate, options?: RequestOptions<never>): Promise<Result<{ 201: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
