// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface ContractColumn {
  /** Column name: ^[a-z][a-z0-9_]{0,62}$, not an SQL reserved word or a system column */
  name: string
  type: "text" | "integer" | "number" | "boolean" | "timestamp" | "json" | "uuid"
  /** Default true */
  nullable?: boolean
  /** Value for rows written without this column (checked against the type) */
  default?: unknown
  /** No two rows hold the same value (409 `conflict` naming the column) */
  unique?: boolean
  /** Range and equality filters (`eq`, `gt`…`lte`, `in`) on this column use a btree index (text, integer, number, timestamp, uuid); `eq` on any column uses the rows' GIN index */
  indexed?: boolean
}

/** What customers may do (own = rows they created); ecosystem admins may do everything */
export interface ContractAccess {
  read: "none" | "own" | "all"
  create: boolean
  update: "none" | "own" | "all"
  delete: "none" | "own" | "all"
}

export interface Contract {
  name: string
  columns: ContractColumn[]
  /** Dropped columns whose values rows keep until a PATCH with `confirm: true` */
  droppedColumns: string[]
  access: ContractAccess
  /** Incremented by every change */
  version: number
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface ContractPage {
  items: Contract[]
  total: number
  page: number
  pageSize: number
}

/** What customers may do (own = rows they created); ecosystem admins may do everything */
export interface ContractAccessPatch {
  read?: "none" | "own" | "all"
  create?: boolean
  update?: "none" | "own" | "all"
  delete?: "none" | "own" | "all"
}

export interface ContractCreate {
  /** Contract name: ^[a-z][a-z0-9_]{0,62}$, not an SQL reserved word or a system column */
  name: string
  columns: ContractColumn[]
  access?: ContractAccessPatch
}

export interface ContractPatch {
  addColumns?: ContractColumn[]
  dropColumns?: string[]
  /** Also remove the values of dropped columns (this and earlier drops) from every row */
  confirm?: boolean
  access?: ContractAccessPatch
}

/** The row's values under their column names, beside its system fields */
export interface ContractRow {
  id: string
  customerId: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  [key: string]: unknown
}

export interface ContractRowList {
  rows: ContractRow[]
  total?: number
  page?: number
  pageSize?: number
}

/** Values by column name */
export interface ContractValues {
  [key: string]: unknown
}

/** The routes under /contract. */
export interface ContractRoutes {
  contracts: ((params: { name: string | number }) => {
    /** One contract */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Add or drop columns, change access */
    patch(body?: ContractPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a contract and its rows */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    rows: ((params: { id: string | number }) => {
      /** One row */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      /** Change values of a row */
      patch(body?: ContractValues, options?: RequestOptions<never>): Promise<Result<{ 200: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
      /** Delete a row */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }) & {
      /** A contract's rows */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: ContractRowList; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      /** Add a row */
      post(body?: ContractValues, options?: RequestOptions<never>): Promise<Result<{ 201: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** The ecosystem's contracts */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: ContractPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Define a contract (a run-time table) */
    post(body: ContractCreate, options?: RequestOptions<never>): Promise<Result<{ 201: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
}
