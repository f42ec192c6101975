// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface StorageUpload {
  /** File name shown on download (no control characters) */
  filename: string
  /** MIME type, e.g. `image/png`; the upload must send exactly this Content-Type */
  contentType: string
  /** Exact size of the bytes to upload */
  sizeBytes: number
  /** SHA-256 of the bytes, hex */
  contentHash: string
  /** What the file is attached to, e.g. `standalone`, `chat_message`, `document` */
  ownerType?: string
  /** Id of the owning record (your own or Ecobase's) */
  ownerId?: string | null
  /** Caller-supplied JSON, stored as given */
  metadata?: {
    [key: string]: unknown
  } | null
  width?: number | null
  height?: number | null
  durationMs?: number | null
}

export interface StorageAttachment {
  id: string
  ecosystemId: string
  customerId: string
  /** For example standalone, chat_message, document */
  ownerType: string
  ownerId?: string | null
  /** Key in the object store that the presigned URLs address */
  objectKey: string
  /** Backing store kind: `local` or `s3` */
  storageKind: string
  filename: string
  contentType: string
  sizeBytes: number
  /** SHA-256 of the bytes, lowercase hex */
  contentHash: string
  width?: number | null
  height?: number | null
  durationMs?: number | null
  /** `pending` (bytes awaited) or `ready` (counts toward the quota) */
  status: string
  metadata?: {
    [key: string]: unknown
  } | null
  createdAt: string
  updatedAt: string
  deletedAt?: string | null
}

/** The caller already has these bytes (ready); nothing to upload */
export interface StorageDeduplicated {
  attachment: StorageAttachment
  deduplicated: true
}

export interface StoragePresignedUpload {
  attachment: StorageAttachment
  /** Presigned PUT URL: send the bytes here, directly */
  uploadUrl: string
  uploadMethod: "PUT"
  /** Headers the PUT must carry exactly (they are signed); Content-Length follows from the body */
  uploadHeaders: {
    [key: string]: string
  }
  /** When uploadUrl stops working */
  expiresAt: string
}

export interface StorageQuotaExceeded {
  error: {
    /** Human-readable explanation */
    message: string
    /** Stable snake_case error code: one of the listed ones (the operation says which it answers); more may be added, so treat an unknown one like its status */
    code: ("already_member" | "ambiguous_slug" | "attachment_pending" | "backup_in_progress" | "backup_missing" | "backup_not_ready" | "backup_unavailable" | "base_url_not_allowed" | "base_url_required" | "billing_not_configured" | "builtin_feature" | "category_not_empty" | "category_not_found" | "client_message_id_reused" | "conflict" | "customer_exists" | "default_category" | "default_plan" | "document_not_found" | "ecosystem_required" | "email_taken" | "embedding_unavailable" | "entitlement_exceeded" | "entity_not_found" | "feature_not_found" | "file_too_large" | "forbidden" | "in_progress" | "in_use" | "insufficient_scope" | "interactive_session_required" | "internal_error" | "invalid_base_url" | "invalid_client" | "invalid_code" | "invalid_cookie" | "invalid_credentials" | "invalid_cursor" | "invalid_json" | "invalid_redirect_uri" | "invalid_refresh_token" | "invalid_request" | "invalid_scope" | "invalid_signature" | "invalid_token" | "last_owner" | "length_required" | "limit_reached" | "mfa_required" | "missing_variable" | "no_price" | "no_recipient" | "not_active" | "not_archived" | "not_editable" | "not_found" | "nothing_to_regenerate" | "origin_not_allowed" | "passkey_origin_mismatch" | "payload_too_large" | "persona_not_found" | "persona_unavailable" | "plan_not_found" | "provider_error" | "query_rejected" | "quota_exceeded" | "rate_limited" | "rdid_taken" | "registration_disabled" | "reserved_external_id" | "service_not_found" | "slug_taken" | "subscription_exists" | "superseded" | "supersedes_mismatch" | "template_name_taken" | "thread_locked" | "thread_not_found" | "token_expired" | "unauthorized" | "unknown_entity_type" | "unknown_template" | "unknown_topic" | "unsubscribed" | "unsupported_media_type" | "unsupported_response_type" | "upload_incomplete" | "user_not_found" | "validation_failed") | (string & {})
  }
  /** Bytes used by ready attachments */
  used: number
  /** The caller's total quota in bytes */
  quota: number
  /** Declared size of the rejected upload */
  requested: number
}

export interface StorageAttachmentEnvelope {
  attachment: StorageAttachment
}

export interface StorageAttachmentPage {
  items: StorageAttachment[]
  total: number
  page: number
  pageSize: number
}

export interface StorageAttachmentPatch {
  /** File name shown on download (no control characters) */
  filename?: string
  /** Caller-supplied JSON, stored as given */
  metadata?: {
    [key: string]: unknown
  } | null
  /** What the file is attached to, e.g. `standalone`, `chat_message`, `document` */
  ownerType?: string
  /** Id of the owning record (your own or Ecobase's) */
  ownerId?: string | null
  width?: number | null
  height?: number | null
  durationMs?: number | null
}

export interface StorageDownload {
  /** Presigned GET URL; the response names the file (Content-Disposition) */
  url: string
  /** When url stops working */
  expiresAt: string
}

/** The routes under /storage. */
export interface StorageRoutes {
  uploads: {
    /** Start an upload: a pending attachment and a presigned PUT URL */
    post(body: StorageUpload, options?: RequestOptions<never>): Promise<Result<{ 200: StorageDeduplicated; 201: StoragePresignedUpload; 400: ErrorBody; 401: ErrorBody; 402: ErrorBody; 403: ErrorBody; 404: ErrorBody; 413: StorageQuotaExceeded; 429: ErrorBody }>>
  }
  attachments: ((params: { id: string | number }) => {
    /** One attachment */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename, re-attach (ownerType/ownerId) or change metadata */
    patch(body?: StorageAttachmentPatch, options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete an attachment */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    complete: {
      /** Confirm the bytes arrived: pending → ready */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 402: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 413: StorageQuotaExceeded; 429: ErrorBody }>>
    }
    download: {
      /** A presigned download URL */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: StorageDownload; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Your attachments, newest first (deleted ones excluded) */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; ownerType?: string; ownerId?: string; status?: "pending" | "ready" }>): Promise<Result<{ 200: StorageAttachmentPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  customers: ((params: { customerId: string | number }) => {
    attachments: ((params: { id: string | number }) => {
      /** Delete a customer's attachment */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      download: {
        /** A presigned download URL for a customer's attachment */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: StorageDownload; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
      }
    }) & {
      /** A customer's attachments, newest first (deleted ones excluded) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; ownerType?: string; ownerId?: string; status?: "pending" | "ready" }>): Promise<Result<{ 200: StorageAttachmentPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  })
}
