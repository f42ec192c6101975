// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.

export interface ErrorBody {
  error: {
    /** Human-readable explanation */
    message: string
    /** Stable snake_case error code: one of the listed ones (the operation says which it answers); more may be added, so treat an unknown one like its status */
    code: ("already_member" | "ambiguous_slug" | "attachment_pending" | "backup_not_ready" | "backup_unavailable" | "base_url_not_allowed" | "base_url_required" | "category_not_empty" | "category_not_found" | "client_message_id_reused" | "conflict" | "customer_exists" | "default_category" | "document_not_found" | "ecosystem_required" | "email_taken" | "embedding_unavailable" | "entity_not_found" | "file_too_large" | "forbidden" | "in_progress" | "insufficient_scope" | "internal_error" | "invalid_base_url" | "invalid_client" | "invalid_cookie" | "invalid_credentials" | "invalid_cursor" | "invalid_json" | "invalid_redirect_uri" | "invalid_refresh_token" | "invalid_request" | "invalid_scope" | "invalid_token" | "last_owner" | "length_required" | "limit_reached" | "missing_variable" | "no_recipient" | "not_active" | "not_archived" | "not_editable" | "not_found" | "nothing_to_regenerate" | "origin_not_allowed" | "payload_too_large" | "persona_not_found" | "persona_unavailable" | "query_rejected" | "quota_exceeded" | "rate_limited" | "rdid_taken" | "registration_disabled" | "reserved_external_id" | "service_not_found" | "slug_taken" | "superseded" | "supersedes_mismatch" | "template_name_taken" | "thread_locked" | "thread_not_found" | "token_expired" | "unauthorized" | "unknown_entity_type" | "unknown_template" | "unknown_topic" | "unsubscribed" | "unsupported_media_type" | "unsupported_response_type" | "upload_incomplete" | "user_not_found" | "validation_failed") | (string & {})
  }
}
