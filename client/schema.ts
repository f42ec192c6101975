// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from './treaty'

export interface SystemHealth {
  status: "ok" | "degraded"
  database: "ok" | "down"
}

export interface SystemVersion {
  name: string
  /** Version from package.json */
  version: string
  /** Git commit of the build, when known (GIT_COMMIT or the checkout) */
  commit: string | null
  /** e.g. "bun 1.4.5" */
  runtime: string
  database: "pglite" | "postgres"
  /** pgvector available (HNSW); false = exact-scan fallback */
  vector: boolean
}

export interface AuthRegister {
  /** E-mail address; unique regardless of case */
  email: string
  /** At least 8 characters */
  password: string
  name: string
}

export interface User {
  id: string
  email: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
}

export interface AuthResult {
  /** JWT access token (bearer credential) */
  token: string
  /** Opaque refresh token, single use, rotated on refresh */
  refreshToken: string
  user: User
}

export interface ErrorBody {
  error: {
    /** Human-readable explanation */
    message: string
    /** Stable snake_case error code: one of the listed ones (the operation says which it answers); more may be added, so treat an unknown one like its status */
    code: ("already_member" | "ambiguous_slug" | "attachment_pending" | "base_url_not_allowed" | "base_url_required" | "category_not_empty" | "category_not_found" | "client_message_id_reused" | "conflict" | "customer_exists" | "default_category" | "document_not_found" | "ecosystem_required" | "email_taken" | "embedding_unavailable" | "entity_not_found" | "file_too_large" | "forbidden" | "in_progress" | "insufficient_scope" | "internal_error" | "invalid_base_url" | "invalid_client" | "invalid_cookie" | "invalid_credentials" | "invalid_json" | "invalid_redirect_uri" | "invalid_refresh_token" | "invalid_request" | "invalid_scope" | "invalid_token" | "last_owner" | "length_required" | "limit_reached" | "missing_variable" | "no_recipient" | "not_active" | "not_archived" | "not_editable" | "not_found" | "nothing_to_regenerate" | "origin_not_allowed" | "payload_too_large" | "persona_not_found" | "persona_unavailable" | "query_rejected" | "quota_exceeded" | "rate_limited" | "rdid_taken" | "registration_disabled" | "reserved_external_id" | "service_not_found" | "slug_taken" | "superseded" | "supersedes_mismatch" | "template_name_taken" | "thread_locked" | "thread_not_found" | "token_expired" | "unauthorized" | "unknown_entity_type" | "unknown_template" | "unsupported_media_type" | "unsupported_response_type" | "upload_incomplete" | "user_not_found" | "validation_failed") | (string & {})
  }
}

export interface AuthLogin {
  email: string
  password: string
}

export interface AuthRefresh {
  /** The refresh token; browsers may omit it and send the ecobase_refresh cookie */
  refreshToken?: string
}

export interface RefreshResult {
  token: string
  refreshToken: string
}

export interface UserSelf {
  id: string
  email: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
  /** The owner of the address proved it (verification or password reset) */
  emailVerified: boolean
}

export interface AuthProfilePatch {
  name?: string
  /** Public login slug */
  slug?: string
}

export interface AuthSlugAvailability {
  available: boolean
  reason?: "format" | "taken"
}

export interface AuthChangePassword {
  currentPassword: string
  /** At least 8 characters */
  newPassword: string
}

export interface ApiToken {
  id: string
  name: string
  /** Non-secret leading characters of the token, for display */
  prefix: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
}

export interface ApiTokenPage {
  items: ApiToken[]
  total: number
  page: number
  pageSize: number
}

export interface AuthCreateApiToken {
  name: string
  /** ISO 8601; must be in the future */
  expiresAt?: string
}

export interface ApiTokenCreated {
  id: string
  name: string
  /** Non-secret leading characters of the token, for display */
  prefix: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  /** The raw token; returned exactly once */
  token: string
}

export interface AuthUserMethod {
  id: string
  userId: string
  provider: string
  providerId: string | null
  hasCredential: boolean
  createdAt: string
  updatedAt: string
}

export interface AuthPasswordResetRequest {
  /** E-mail address; unique regardless of case */
  email: string
}

/** Accepted; an e-mail follows if there is someone to send it to */
export type AuthAccepted = Record<string, never>

export interface AuthPasswordResetConfirm {
  token: string
  /** At least 8 characters */
  newPassword: string
}

export interface AuthVerifyEmailConfirm {
  token: string
}

export interface AuthEmailVerified {
  emailVerified: true
}

export interface AuthMethodSetting {
  method: string
  enabled: boolean
}

export interface AuthMethodSettingUpdate {
  enabled: boolean
}

export interface OAuthCreateClient {
  /** Shown to users on the consent page */
  name: string
  redirectUris: string[]
  /** Default: `profile`, `email` */
  scopes?: string[]
}

export interface OAuthClientCreated {
  /** Id of the registration, for /oauth/clients/{id} */
  id: string
  /** The public OAuth `client_id` */
  clientId: string
  name: string
  redirectUris: string[]
  /** Scopes the client may ask for */
  scopes: string[]
  createdAt: string
  updatedAt: string
  /** The client secret; returned exactly once, stored hashed */
  clientSecret: string
}

export interface OAuthClient {
  /** Id of the registration, for /oauth/clients/{id} */
  id: string
  /** The public OAuth `client_id` */
  clientId: string
  name: string
  redirectUris: string[]
  /** Scopes the client may ask for */
  scopes: string[]
  createdAt: string
  updatedAt: string
}

export interface OAuthClientPage {
  items: OAuthClient[]
  total: number
  page: number
  pageSize: number
}

export interface OAuthUpdateClient {
  /** Shown to users on the consent page */
  name?: string
  redirectUris?: string[]
  scopes?: string[]
}

export interface OAuthGrant {
  id: string
  /** The application’s public `client_id` */
  clientId: string
  clientName: string
  scopes: string[]
  createdAt: string
  /** Last refresh */
  lastUsedAt: string | null
  /** When the refresh token lapses unless used */
  expiresAt: string
}

export interface OAuthGrantPage {
  items: OAuthGrant[]
  total: number
  page: number
  pageSize: number
}

export interface OAuthAuthorize {
  /** `code` */
  response_type: string
  /** The client application identifier */
  client_id: string
  /** One of the client’s registered redirect URIs, exactly */
  redirect_uri: string
  /** Space-separated scopes (`profile`, `email`); default: all the client may ask for */
  scope?: string
  /** Opaque value returned unchanged in the redirect */
  state?: string
  /** PKCE: BASE64URL(SHA-256(code_verifier)) */
  code_challenge: string
  /** `S256` (the only method accepted) */
  code_challenge_method: string
}

export interface OAuthAuthorizeResult {
  /** `redirect_uri` with `code`, `state` and `iss` added; send the browser there */
  redirectTo: string
  /** The authorization code (single use) */
  code: string
  /** The `state` of the request, when it had one */
  state?: string
}

export interface OAuthAuthorizationServerMetadata {
  issuer: string
  authorization_endpoint: string
  /** POST /api/oauth/signin/exchange */
  token_endpoint: string
  /** POST /api/auth/revoke */
  revocation_endpoint: string
  /** POST /api/auth/refresh (the token endpoint refreshes too) */
  ecobase_refresh_endpoint: string
  /** GET /api/auth/me */
  ecobase_me_endpoint: string
  scopes_supported: string[]
  response_types_supported: string[]
  response_modes_supported: string[]
  grant_types_supported: string[]
  token_endpoint_auth_methods_supported: string[]
  revocation_endpoint_auth_methods_supported: string[]
  code_challenge_methods_supported: string[]
  authorization_response_iss_parameter_supported: boolean
  service_documentation: string
}

export interface OAuthExchangeRequest {
  /** `authorization_code` (`refresh_token` is also served here, as standard clients expect) */
  grant_type: string
  /** The authorization code */
  code: string
  /** Equal to the redirect URI the code was issued for */
  redirect_uri: string
  /** The PKCE verifier matching the code_challenge */
  code_verifier: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthTokenResponse {
  /** JWT (`typ` `oauth`); send as `Authorization: Bearer <token>` */
  access_token: string
  /** Opaque and single-use; replace the stored one with it */
  refresh_token: string
  /** Seconds until the access token expires (OAUTH_ACCESS_TOKEN_TTL_SECONDS) */
  expires_in: number
  token_type: "Bearer"
  /** Granted scopes, space-separated */
  scope: string
}

export interface OAuthError {
  /** `invalid_request` (400), `invalid_grant` (400), `invalid_scope` (400), `invalid_client` (401), `invalid_verifier` (401) */
  error: string
  /** Human-readable explanation */
  error_description: string
}

export interface OAuthRefreshRequest {
  /** `refresh_token` */
  grant_type: string
  refresh_token: string
  /** Optional narrower set of the granted scopes */
  scope?: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthRevokeRequest {
  /** A refresh token (an access token of the grant also works) */
  token: string
  /** `refresh_token` or `access_token` (optional) */
  token_type_hint?: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthRevokeResult {
  /** Always true: unknown tokens are answered the same way (RFC 7009) */
  revoked: true
}

export interface OAuthUser {
  id: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
  /** Only with the `email` scope */
  email?: string
}

export interface RegistryProvision {
  /** Organization slug, unique; also its identifier organization.<slug> */
  slug: string
  name: string
  /** Namespace slug (defaults to the organization slug); the prefix is org.<namespaceSlug> */
  namespaceSlug?: string
  /** Slug of the first ecosystem (default `main`) */
  ecosystemSlug?: string
}

export interface RegistryOrganization {
  id: string
  slug: string
  name: string
}

export interface RegistryNamespace {
  id: string
  ownerKind: "customer" | "organization"
  ownerId: string
  slug: string | null
  name: string | null
  /** The namespace reverse-domain prefix */
  rdid: string | null
}

export interface RegistryEcosystem {
  id: string
  slug: string
  /** Defaults to the namespace prefix, a dot, then the slug */
  rdid: string
  name: string | null
  organizationId: string
}

export interface RegistryProvisionedOrganization {
  organization: RegistryOrganization
  namespace: RegistryNamespace
  /** The provisioned admin team id */
  teamId: string
  ecosystem: RegistryEcosystem
}

export interface RegistryOrganizationPage {
  items: RegistryOrganization[]
  total: number
  page: number
  pageSize: number
}

export interface RegistryNamespacePage {
  items: RegistryNamespace[]
  total: number
  page: number
  pageSize: number
}

export interface RegistryNamespacePatch {
  /** Namespace slug */
  slug?: string
  name?: string
}

export interface RegistryNamespaceUpdate {
  id: string
  slug: string | null
  name: string | null
}

export interface RegistryEcosystemCreate {
  organizationId: string
  /** Unique within the organization */
  slug: string
  name?: string
  /** Defaults to <namespace prefix>.<slug>; must lie under the prefix */
  rdid?: string
}

export interface RegistryEcosystemPage {
  items: RegistryEcosystem[]
  total: number
  page: number
  pageSize: number
}

export interface RegistryEcosystemPatch {
  /** New slug; an rdid in its default form follows it */
  slug?: string
  name?: string
}

export interface RegistryIdentifier {
  rdid: string
  /** e.g. namespace, ecosystem, organization */
  entityType: string
  /** The UUID the rdid resolves to */
  entityId: string
  /** The minter; null for system mappings */
  createdBy: string | null
}

export interface RegistryIdentifierCreate {
  /** Reverse-domain identifier: two or more dot-separated labels of [a-z0-9-] */
  rdid: string
  entityType: string
  entityId: string
}

export interface RegistryIdentifierPage {
  items: RegistryIdentifier[]
  total: number
  page: number
  pageSize: number
}

export interface TeamMember {
  /** Membership id (used by PATCH/DELETE) */
  id: string
  organizationId: string
  userId: string
  email: string
  name: string
  role: "owner" | "admin" | "member"
  createdAt: string
}

export interface TeamMemberPage {
  items: TeamMember[]
  total: number
  page: number
  pageSize: number
}

export interface TeamMemberAdd {
  organizationId: string
  email: string
  role: "owner" | "admin" | "member"
}

export interface TeamMemberPatch {
  role: "owner" | "admin" | "member"
}

export interface CustomerResolve {
  /** Your own id for this customer; unique per ecosystem */
  externalId: string
  email?: string
  /** Phone number, E.164 preferred */
  phone?: string
  name?: string
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string
}

export interface CustomerResolveResult {
  /** The stable customer id for the external id */
  customerId: string
}

export interface CustomerRegister {
  /** Your own id for this customer; unique per ecosystem */
  externalId?: string
  email?: string
  /** Phone number, E.164 preferred */
  phone?: string
  name?: string
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string
}

export interface CustomerRegisterResult {
  /** The newly provisioned customer id */
  customerId: string
}

export interface CustomerToken {
  customerId: string
}

export interface CustomerAuthResult {
  /** Short-lived JWT, typ `customer`, carrying the ecosystem (`eco`) and customer (`sub`) */
  token: string
  /** Opaque, single-use, rotated on refresh */
  refreshToken: string
  customerId: string
}

export interface CustomerRefresh {
  refreshToken: string
}

export interface Customer {
  id: string
  ecosystemId: string
  externalId: string | null
  email: string | null
  phone: string | null
  name: string | null
  avatarUrl: string | null
  createdAt: string
  updatedAt: string
}

export interface CustomerPage {
  items: Customer[]
  total: number
  page: number
  pageSize: number
}

export interface CustomerPatch {
  /** Your own id for this customer; unique per ecosystem */
  externalId?: string
  email?: string
  /** Phone number, E.164 preferred */
  phone?: string
  name?: string
  /** Picture URL (shown on leaderboards and profiles) */
  avatarUrl?: string
}

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
    code: ("already_member" | "ambiguous_slug" | "attachment_pending" | "base_url_not_allowed" | "base_url_required" | "category_not_empty" | "category_not_found" | "client_message_id_reused" | "conflict" | "customer_exists" | "default_category" | "document_not_found" | "ecosystem_required" | "email_taken" | "embedding_unavailable" | "entity_not_found" | "file_too_large" | "forbidden" | "in_progress" | "insufficient_scope" | "internal_error" | "invalid_base_url" | "invalid_client" | "invalid_cookie" | "invalid_credentials" | "invalid_json" | "invalid_redirect_uri" | "invalid_refresh_token" | "invalid_request" | "invalid_scope" | "invalid_token" | "last_owner" | "length_required" | "limit_reached" | "missing_variable" | "no_recipient" | "not_active" | "not_archived" | "not_editable" | "not_found" | "nothing_to_regenerate" | "origin_not_allowed" | "payload_too_large" | "persona_not_found" | "persona_unavailable" | "query_rejected" | "quota_exceeded" | "rate_limited" | "rdid_taken" | "registration_disabled" | "reserved_external_id" | "service_not_found" | "slug_taken" | "superseded" | "supersedes_mismatch" | "template_name_taken" | "thread_locked" | "thread_not_found" | "token_expired" | "unauthorized" | "unknown_entity_type" | "unknown_template" | "unsupported_media_type" | "unsupported_response_type" | "upload_incomplete" | "user_not_found" | "validation_failed") | (string & {})
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

export interface UsageStorageQuota {
  /** Per-user quota: the override, else the default (5 GiB unless configured) */
  quotaBytes: number
  /** Bytes of ready, non-deleted attachments */
  usageBytes: number
  /** max(0, quotaBytes - usageBytes) */
  availableBytes: number
}

export interface UsageStorageQuotaRow {
  /** The customer id */
  userId: string
  /** The ecosystem id the override is scoped to */
  ownerId: string
  quotaBytes: number
  updatedAt: string
}

export interface UsageStorageQuotaPage {
  items: UsageStorageQuotaRow[]
  total: number
  page: number
  pageSize: number
}

export interface StorageQuota {
  /** Total bytes this customer may keep */
  quotaBytes: number
}

export interface PersonaServiceTemplate {
  id: string
  providerKind: string
  name: string
  /** Default base URL; null: you must give one */
  baseUrl: string | null
  requiresApiKey: boolean
  documentationUrl: string
  statusUrl: string | null
}

export type PersonaServiceModel = string | {
  id: string
  [key: string]: unknown
}

export interface PersonaService {
  id: string
  templateId?: string | null
  /** `openai`, `ollama`, `openrouter` or `openai_compatible`; all are spoken to with the OpenAI chat-completions protocol */
  providerKind: string
  name: string
  baseUrl: string
  /** Whether an API key is stored; the key itself is never returned */
  hasApiKey: boolean
  /** `never` (not tried), `connected` or `failed` (see connectError) */
  connectStatus: string
  connectError?: string | null
  /** ISO 8601 UTC */
  lastConnectedAt?: string | null
  /** Models listed at the last successful connect */
  models: PersonaServiceModel[]
  /** ISO 8601 UTC */
  modelsFetchedAt?: string | null
  documentationUrl?: string | null
  statusUrl?: string | null
  /** ISO 8601 UTC */
  createdAt: string
  /** ISO 8601 UTC */
  updatedAt: string
}

export interface PersonaServicePage {
  items: PersonaService[]
  total: number
  page: number
  pageSize: number
}

export interface PersonaServiceCreate {
  /** A template id from GET /persona/service-templates: fills providerKind, name, baseUrl and links */
  templateId?: string
  name?: string
  /** OpenAI-compatible API root, e.g. https://api.openai.com/v1 */
  baseUrl?: string
  /** Stored encrypted; never returned */
  apiKey?: string
}

export interface PersonaServicePatch {
  name?: string
  /** OpenAI-compatible API root, e.g. https://api.openai.com/v1 */
  baseUrl?: string
  /** Stored encrypted; never returned */
  apiKey?: string | null
}

export interface Persona {
  id: string
  slug: string
  name: string
  description: string | null
  /** System prompt the model receives */
  modelPrompt: string
  voice: string | null
  character: string | null
  examples: string | null
  visibility: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId: string | null
  /** Model id; null: the service's default */
  model: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity: boolean
  createdBy: string | null
  /** ISO 8601 UTC */
  createdAt: string
  /** ISO 8601 UTC */
  updatedAt: string
}

export interface PersonaPage {
  items: Persona[]
  total: number
  page: number
  pageSize: number
}

export interface PersonaCreate {
  /** Unique within the ecosystem */
  slug: string
  name: string
  description?: string | null
  /** System prompt the model receives */
  modelPrompt?: string
  voice?: string | null
  character?: string | null
  examples?: string | null
  visibility?: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId?: string | null
  /** Model id; null: the service's default */
  model?: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity?: boolean
}

export interface PersonaPatch {
  /** Unique within the ecosystem */
  slug?: string
  name?: string
  description?: string | null
  /** System prompt the model receives */
  modelPrompt?: string
  voice?: string | null
  character?: string | null
  examples?: string | null
  visibility?: "private" | "unlisted" | "public"
  /** A persona service of this ecosystem; null: the default service */
  serviceId?: string | null
  /** Model id; null: the service's default */
  model?: string | null
  /** Chat's `search` tool may also search the ecosystem's community threads (`in: "community"`), which every customer of the ecosystem can read anyway. Default false. */
  searchCommunity?: boolean
}

/** The account that created the persona; null when it has no public profile (no slug) */
export interface PublicOwner {
  slug: string
  displayName: string | null
  avatarUrl: string | null
}

export interface PublicPersonaSummary {
  slug: string
  name: string
  description: string | null
  visibility: "public"
  /** ISO 8601 UTC */
  createdAt: string
  owner: PublicOwner | null
  /** The ecosystem the persona belongs to (pass it as ?ecosystem= when a slug is ambiguous) */
  ecosystemId: string
}

export interface PublicPersonaPage {
  items: PublicPersonaSummary[]
  total: number
  page: number
  pageSize: number
}

export interface PublicPersona {
  slug: string
  name: string
  description: string | null
  modelPrompt: string
  voice: string | null
  character: string | null
  examples: string | null
  visibility: "public" | "unlisted"
  /** ISO 8601 UTC */
  createdAt: string
  owner: PublicOwner | null
  /** The ecosystem the persona belongs to (pass it as ?ecosystem= when a slug is ambiguous) */
  ecosystemId: string
}

export interface PublicUserProfile {
  slug: string
  displayName: string | null
  avatarUrl: string | null
  /** ISO 8601 UTC */
  createdAt: string
  /** Public personas the user created, newest first (at most 100) */
  personas: PublicPersonaSummary[]
}

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
  /** ISO 8601 UTC */
  createdAt: string
  /** ISO 8601 UTC */
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
  /** ISO 8601 UTC */
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

export interface SiteService {
  slug: string
  kind: string
  enabled: boolean
  /** Names of the configured keys; values, secret or not, are never returned */
  configKeys: string[]
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface SiteServiceUpsert {
  /** smtp, twilio, openai or webhook */
  kind: string
  enabled: boolean
  /** Provider settings (see the kinds); stored sealed, never returned */
  config: {
    [key: string]: unknown
  }
}

export interface SiteFeedItem {
  id: string
  customerId: string
  /** The ecosystem id */
  ownerId: string
  /** The area: `community`, `storage`, `persona_memory`, … */
  source: string
  entityType: string
  entityId?: string | null
  action: string
  /** One line a person reads */
  summary: string
  /** Who caused it, when someone did */
  actorId?: string | null
  /** JSON text with details */
  metadata?: string | null
  isRead: boolean
  createdAt: string
  deletedAt?: string | null
}

export interface SiteFeedPage {
  items: SiteFeedItem[]
  total: number
  page: number
  pageSize: number
}

export interface SiteFeedUnreadCount {
  count: number
}

export interface SiteFeedReadAllResult {
  updated: number
}

/** Server-sent events (text/event-stream) */
export type SiteFeedStreamEvent = {
  event: "item"
  /** Send it back as Last-Event-ID to resume */
  id: string
  data: SiteFeedItem
} | {
  event: "ping"
  data: Record<string, never>
}

export interface MessagingTemplate {
  id: string
  name: string
  subject: string
  htmlBody: string
  textBody: string
  category: string
  smsBody?: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface MessagingTemplatePage {
  items: MessagingTemplate[]
  total: number
  page: number
  pageSize: number
}

export interface MessagingTemplateCreate {
  /** Unique in the ecosystem (409 `template_name_taken`) */
  name: string
  /** One line (a header); `{{variable}}` values are folded onto it */
  subject: string
  /** HTML; `{{variable}}` values are HTML-escaped */
  htmlBody: string
  /** Plain text alternative; `{{variable}}` values are inserted as they are */
  textBody: string
  /** What the message is about: a notification category (`account`, `community_reply`, `community_mention`, `admin_announcement`) or your own word */
  category: string
  /** Plain text; `{{variable}}` values are inserted as they are */
  smsBody?: string | null
}

export interface MessagingTemplatePatch {
  /** Unique in the ecosystem (409 `template_name_taken`) */
  name?: string
  /** One line (a header); `{{variable}}` values are folded onto it */
  subject?: string
  /** HTML; `{{variable}}` values are HTML-escaped */
  htmlBody?: string
  /** Plain text alternative; `{{variable}}` values are inserted as they are */
  textBody?: string
  /** What the message is about: a notification category (`account`, `community_reply`, `community_mention`, `admin_announcement`) or your own word */
  category?: string
  /** Plain text; `{{variable}}` values are inserted as they are */
  smsBody?: string | null
}

export interface MessagingPreviewRequest {
  /** Values for `{{name}}` placeholders (HTML-escaped in HTML bodies, as they are in text and SMS). `customer.name`, `customer.email` and `customer.id` are filled in from the customer unless given. A placeholder without a value is 400 `missing_variable` naming it. */
  variables?: {
    [key: string]: string
  }
}

export interface MessagingPreview {
  subject: string
  htmlBody: string
  textBody: string
  smsBody: string | null
}

export interface MessagingStatus {
  /** An e-mail provider is configured and enabled (the ecosystem’s smtp site service or SMTP_URL); false = the local outbox */
  email: boolean
  /** An SMS provider is configured and enabled (the ecosystem’s twilio site service or TWILIO_*); false = the local outbox */
  sms: boolean
}

export interface MessagingEmailSend {
  customerId: string
  templateId?: string
  /** One line (a header); `{{variable}}` values are folded onto it */
  subject?: string
  /** HTML body (without templateId) */
  html?: string
  /** Plain text body (without templateId); derived from html when omitted */
  text?: string
  /** Values for `{{name}}` placeholders (HTML-escaped in HTML bodies, as they are in text and SMS). `customer.name`, `customer.email` and `customer.id` are filled in from the customer unless given. A placeholder without a value is 400 `missing_variable` naming it. */
  variables?: {
    [key: string]: string
  }
}

export interface MessagingSendResult {
  status: "sent" | "failed"
  /** The provider’s message id (SMTP Message-ID, Twilio SID, or `outbox:<id>`) */
  providerId?: string
  /** The provider’s reason, when it did not take the message */
  error?: string
}

export interface MessagingSmsSend {
  customerId: string
  templateId?: string
  /** Plain text; `{{variable}}` values are inserted as they are */
  body?: string
  /** Values for `{{name}}` placeholders (HTML-escaped in HTML bodies, as they are in text and SMS). `customer.name`, `customer.email` and `customer.id` are filled in from the customer unless given. A placeholder without a value is 400 `missing_variable` naming it. */
  variables?: {
    [key: string]: string
  }
}

export interface MessagingLogEntry {
  id: string
  /** The recipient customer */
  customerId: string
  deletedAt?: string | null
  /** The ecosystem id */
  ownerId: string
  channel: "email" | "sms"
  /** The resolved address or phone number */
  recipient: string
  subject?: string | null
  /** The text sent (the plain-text part of an e-mail) */
  body: string
  templateId?: string | null
  status: "sent" | "failed"
  providerId?: string | null
  errorMessage?: string | null
  /** The admin who sent it; null for notification deliveries */
  sentBy?: string | null
  createdAt: string
}

export interface MessagingLogPage {
  items: MessagingLogEntry[]
  total: number
  page: number
  pageSize: number
}

export interface MessagingOutboxMessage {
  id: string
  channel: "email" | "sms"
  recipient: string
  subject: string | null
  text: string
  html: string | null
  headers: {
    [key: string]: string
  }
  /** ISO 8601, UTC */
  createdAt: string
}

export interface MessagingOutboxPage {
  items: MessagingOutboxMessage[]
  total: number
  page: number
  pageSize: number
}

export interface Notification {
  id: string
  /** The recipient customer */
  userId: string
  ecosystemId: string
  /** Its category: `account`, `community_reply`, `community_mention` or `admin_announcement` */
  type: string
  /** What it is about: the thread, or the announcement id; "" when nothing */
  threadId: string
  replyId?: string | null
  /** Who caused it (customer or admin user id); "" when the system did */
  actorId: string
  /** One-line title (the e-mail subject) */
  subject: string
  /** Text */
  body: string
  isRead: boolean
  createdAt: string
}

export interface NotificationPage {
  items: Notification[]
  total: number
  page: number
  pageSize: number
}

export interface NotificationsReadAllResult {
  updated: number
}

export interface NotificationPreference {
  category: "account" | "community_reply" | "community_mention" | "admin_announcement"
  email: boolean
  sms: boolean
}

export interface NotificationPreferenceUpdate {
  email: boolean
  sms: boolean
}

export interface NotificationAnnouncement {
  subject: string
  body: string
  /** Channels besides the in-app notification (default `["email"]`); each customer’s admin_announcement preference still decides */
  channels?: ("email" | "sms")[]
}

export interface NotificationAnnouncementResult {
  recipients: number
}

export interface CommunityCategory {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  name: string
  slug: string
  description: string
  position: number
}

export interface CommunityCategoriesPage {
  items: CommunityCategory[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityCategoryCreate {
  name: string
  slug: string
  description?: string
  position?: number
}

export interface CommunityCategoryPatch {
  name?: string
  slug?: string
  description?: string
  position?: number
}

export interface CommunityThread {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  categoryId: string
  title: string
  body: string
  locked: boolean
  pinned: boolean
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface CommunityThreadsPage {
  items: CommunityThread[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityThreadCreate {
  title: string
  body?: string
  /** Default: the `general` category */
  categoryId?: string
  /** Admins only: no new replies */
  locked?: boolean
  /** Admins only: listed first */
  pinned?: boolean
}

export interface CommunityThreadPatch {
  title?: string
  body?: string
  /** Default: the `general` category */
  categoryId?: string
  /** Admins only: no new replies */
  locked?: boolean
  /** Admins only: listed first */
  pinned?: boolean
}

export interface CommunityReply {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  threadId: string
  body: string
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface CommunityRepliesPage {
  items: CommunityReply[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityReplyCreate {
  threadId: string
  body: string
}

export interface CommunityReplyPatch {
  body: string
}

/** Points per action; defaults {"threadCreated":5,"replyCreated":2,"replyReceived":1}. A badge earned gives its own pointValue. */
export interface CommunityPointRules {
  threadCreated: number
  replyCreated: number
  replyReceived: number
}

export interface CommunityPointsAward {
  customerId: string
  amount: number
  reason: string
  sourceType: string
  sourceId: string
}

export interface CommunityPoints {
  id: string
  amount: number
  reason: string
  sourceType: string
  sourceId: string
  createdAt: string
}

export interface CommunityPointsPage {
  items: CommunityPoints[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityBadge {
  id: string
  name: string
  description: string
  icon: string
  criteriaType: string
  criteriaThreshold: number
  pointValue: number
}

export interface CommunityBadgeCreate {
  name: string
  description?: string
  /** An emoji, icon name or image URL, as your front end shows it */
  icon?: string
  criteriaType: "points_total" | "threads_created" | "replies_created" | "replies_received"
  criteriaThreshold: number
  pointValue?: number
}

export interface CommunityBadgePatch {
  name?: string
  description?: string
  /** An emoji, icon name or image URL, as your front end shows it */
  icon?: string
  criteriaType?: "points_total" | "threads_created" | "replies_created" | "replies_received"
  criteriaThreshold?: number
  pointValue?: number
}

export interface CommunityUserBadge {
  id: string
  /** The badge definition’s id */
  badgeType: string
  name: string
  description: string
  icon: string
  awardedAt: string
}

export interface CommunityProfile {
  userId: string
  name: string | null
  avatarUrl: string
  totalPoints: number
  level: string
  /** All time: 1 + the customers with more points (ties share a rank) */
  rank: number
  badges: CommunityUserBadge[]
}

export interface CommunityLevel {
  name: string
  minPoints: number
}

export interface CommunityLevelsReplace {
  levels: CommunityLevel[]
}

export interface CommunityLeaderboardEntry {
  userId: string
  name: string | null
  avatarUrl: string
  totalPoints: number
  level: string
}

export interface CommunityLeaderboard {
  items: CommunityLeaderboardEntry[]
  total: number
  page: number
  pageSize: number
}

export interface WebhookEventTypes {
  items: {
    type: string
    description: string
  }[]
}

export interface Webhook {
  id: string
  url: string
  events: string[]
  enabled: boolean
  description: string
  /** Why the service turned it off (every delivery failing for 3 days) */
  disabledReason: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface WebhookList {
  items: Webhook[]
}

export interface WebhookCreate {
  /** https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Redirects are not followed. */
  url: string
  /** Event types sent to this endpoint (none: it only gets what POST …/test sends) */
  events: string[]
  enabled?: boolean
  description?: string
}

export interface WebhookWithSecret {
  id: string
  url: string
  events: string[]
  enabled: boolean
  description: string
  /** Why the service turned it off (every delivery failing for 3 days) */
  disabledReason: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  /** The signing secret (`whsec_…`): shown in this answer only */
  secret: string
}

/** `enabled: true` also clears `disabledReason` */
export interface WebhookPatch {
  /** https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Redirects are not followed. */
  url?: string
  /** Event types sent to this endpoint (none: it only gets what POST …/test sends) */
  events?: string[]
  enabled?: boolean
  description?: string
}

export interface WebhookDelivery {
  /** Also the `webhook-id` header of every attempt */
  id: string
  webhookId: string
  eventType: string
  status: "pending" | "succeeded" | "failed"
  attempts: number
  responseCode: number | null
  latencyMs: number | null
  lastError: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[]
  total: number
  page: number
  pageSize: number
}

export interface MonitoredSite {
  id: string
  name: string
  url: string
  intervalMinutes: number
  expectedStatus: number
  keyword: string | null
  timeoutMs: number
  enabled: boolean
  state: "unknown" | "up" | "down"
  stateChangedAt: string | null
  lastCheckedAt: string | null
  lastStatusCode: number | null
  lastLatencyMs: number | null
  lastError: string | null
  /** https: days until the server’s certificate expires (read even when it is not trusted) */
  tlsDaysLeft: number | null
  /** ISO 8601, UTC */
  nextCheckAt: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface MonitoredSitePage {
  items: MonitoredSite[]
  total: number
  page: number
  pageSize: number
}

export interface MonitoredSiteCreate {
  name: string
  /** http or https; checked through the outbound address guard (no private addresses unless MONITORED_SITES_PRIVATE_ADDRESSES=allow); redirects are answers, not followed */
  url: string
  /** How often it is checked */
  intervalMinutes: number
  /** The status a healthy answer has */
  expectedStatus?: number
  /** Text that must appear in the first 1 MiB of the body */
  keyword?: string | null
  /** No answer within this is a failed check */
  timeoutMs?: number
  /** false pauses the checks */
  enabled?: boolean
}

export interface MonitoredSiteDetail {
  id: string
  name: string
  url: string
  intervalMinutes: number
  expectedStatus: number
  keyword: string | null
  timeoutMs: number
  enabled: boolean
  state: "unknown" | "up" | "down"
  stateChangedAt: string | null
  lastCheckedAt: string | null
  lastStatusCode: number | null
  lastLatencyMs: number | null
  lastError: string | null
  /** https: days until the server’s certificate expires (read even when it is not trusted) */
  tlsDaysLeft: number | null
  /** ISO 8601, UTC */
  nextCheckAt: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  stats: {
    "24h": {
      checks: number
      /** Share of checks that passed, to 0.01 %; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
    "7d": {
      checks: number
      /** Share of checks that passed, to 0.01 %; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
    "30d": {
      checks: number
      /** Share of checks that passed, to 0.01 %; null without checks */
      uptimePercent: number | null
      /** 95th percentile of the answer time of checks that got an answer */
      p95LatencyMs: number | null
    }
  }
}

/** A different `url` starts the site afresh (`state: "unknown"`); the same one sent again changes nothing */
export interface MonitoredSitePatch {
  name?: string
  /** http or https; checked through the outbound address guard (no private addresses unless MONITORED_SITES_PRIVATE_ADDRESSES=allow); redirects are answers, not followed */
  url?: string
  /** How often it is checked */
  intervalMinutes?: number
  /** The status a healthy answer has */
  expectedStatus?: number
  /** Text that must appear in the first 1 MiB of the body */
  keyword?: string | null
  /** No answer within this is a failed check */
  timeoutMs?: number
  /** false pauses the checks */
  enabled?: boolean
}

export interface MonitoredSiteCheck {
  id: string
  siteId: string
  /** ISO 8601, UTC */
  checkedAt: string
  ok: boolean
  statusCode: number | null
  latencyMs: number | null
  error: string | null
  tlsDaysLeft: number | null
}

export interface MonitoredSiteCheckPage {
  items: MonitoredSiteCheck[]
  total: number
  page: number
  pageSize: number
}

export interface WebhookEventCustomerCreated {
  type: "customer.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    externalId: string | null
    email: string | null
    name: string | null
    createdAt: string
  }
}

export interface WebhookEventCustomerDeleted {
  type: "customer.deleted"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
  }
}

export interface WebhookEventChatMessageCompleted {
  type: "chat.message.completed"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    conversationId: string
    messageId: string
    customerId: string
    status: string
  }
}

export interface WebhookEventStorageAttachmentReady {
  type: "storage.attachment.ready"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    customerId: string | null
    filename: string
    contentType: string
    sizeBytes: number
  }
}

export interface WebhookEventCommunityThreadCreated {
  type: "community.thread.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    categoryId: string
    customerId: string
    title: string
  }
}

export interface WebhookEventCommunityReplyCreated {
  type: "community.reply.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    threadId: string
    customerId: string
  }
}

export interface WebhookEventMessagingSent {
  type: "messaging.sent"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    logId: string
    customerId: string
    channel: string
    templateId: string | null
  }
}

export interface WebhookEventMessagingFailed {
  type: "messaging.failed"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    logId: string
    customerId: string
    channel: string
    templateId: string | null
    error: string
  }
}

export interface WebhookEventMonitoredSiteDown {
  type: "monitored_site.down"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    siteId: string
    name: string
    url: string
    error: string | null
    statusCode: number | null
  }
}

export interface WebhookEventMonitoredSiteUp {
  type: "monitored_site.up"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    siteId: string
    name: string
    url: string
    statusCode: number | null
  }
}

export interface WebhookEventWebhookTest {
  type: "webhook.test"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    webhookId: string
  }
}

/** Every route of the API as Eden treaty calls it: path segments are properties, `{param}` segments are calls. */
export interface Api {
  health: {
    /** Liveness probe with a database check (503 when the database is down) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemHealth; 400: ErrorBody; 503: SystemHealth }>>
  }
  site: {
    version: {
      /** Build and version information */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SystemVersion; 400: ErrorBody }>>
    }
    services: ((params: { slug: string | number }) => {
      /** One provider setting */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create or replace a provider setting */
      put(body: SiteServiceUpsert, options?: RequestOptions<never>): Promise<Result<{ 200: SiteService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete a provider setting */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** The ecosystem's provider settings */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteService[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    feed: ((params: { id: string | number }) => {
      read: {
        /** Mark an item read */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedItem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** Activity items, newest first */
      get(options?: RequestOptions<{ unread?: boolean; source?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: SiteFeedPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      "unread-count": {
        /** How many items are unread */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedUnreadCount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
      "read-all": {
        /** Mark every item read */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: SiteFeedReadAllResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
      stream: {
        /** New items, live */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: AsyncGenerator<SiteFeedStreamEvent>; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }
  }
  auth: {
    register: {
      /** Create an account and sign in */
      post(body: AuthRegister, options?: RequestOptions<never>): Promise<Result<{ 201: AuthResult; 400: ErrorBody; 403: ErrorBody; 409: ErrorBody; 413: ErrorBody }>>
    }
    login: {
      /** Sign in with e-mail and password */
      post(body: AuthLogin, options?: RequestOptions<never>): Promise<Result<{ 200: AuthResult; 400: ErrorBody; 401: ErrorBody; 429: ErrorBody }>>
    }
    refresh: {
      /** Rotate the refresh token */
      post(body?: AuthRefresh, options?: RequestOptions<never>): Promise<Result<{ 200: RefreshResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody }>>
    }
    revoke: {
      /** Sign out (revoke the session of a refresh token) */
      post(body?: AuthRefresh, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 403: ErrorBody }>>
    }
    me: {
      /** The signed-in user */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: UserSelf; 400: ErrorBody; 401: ErrorBody }>>
      /** Update name and/or slug */
      patch(body?: AuthProfilePatch, options?: RequestOptions<never>): Promise<Result<{ 200: User; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    "slug-available": ((params: { slug: string | number }) => {
      /** Whether a slug is free and well-formed */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthSlugAvailability; 400: ErrorBody; 401: ErrorBody }>>
    })
    "revoke-all": {
      /** Sign out everywhere (revoke every session) */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody }>>
    }
    "change-password": {
      /** Change the password */
      post(body: AuthChangePassword, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody }>>
    }
    tokens: ((params: { id: string | number }) => {
      /** Delete an API token */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List API tokens (newest first; never the secret) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: ApiTokenPage; 400: ErrorBody; 401: ErrorBody }>>
      /** Create an API token */
      post(body: AuthCreateApiToken, options?: RequestOptions<never>): Promise<Result<{ 201: ApiTokenCreated; 400: ErrorBody; 401: ErrorBody }>>
    }
    methods: {
      /** The caller's sign-in methods */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthUserMethod[]; 400: ErrorBody; 401: ErrorBody }>>
    }
    "password-reset": {
      request: {
        /** E-mail a password-reset token */
        post(body: AuthPasswordResetRequest, options?: RequestOptions<never>): Promise<Result<{ 202: AuthAccepted; 400: ErrorBody; 429: ErrorBody }>>
      }
      confirm: {
        /** Set a new password with a reset token */
        post(body: AuthPasswordResetConfirm, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody }>>
      }
    }
    "verify-email": {
      request: {
        /** E-mail a verification token to the signed-in account */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 202: AuthAccepted; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      }
      confirm: {
        /** Confirm the address with a verification token */
        post(body: AuthVerifyEmailConfirm, options?: RequestOptions<never>): Promise<Result<{ 200: AuthEmailVerified; 400: ErrorBody }>>
      }
    }
  }
  settings: {
    "auth-methods": ((params: { method: string | number }) => {
      /** Enable or disable a sign-in method (admin) */
      put(body: AuthMethodSettingUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Platform sign-in methods and whether each is enabled */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: AuthMethodSetting[]; 400: ErrorBody; 401: ErrorBody }>>
    }
  }
  oauth: {
    clients: ((params: { id: string | number }) => {
      /** One of the caller’s client applications */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClient; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      /** Rename a client or change its redirect URIs or scopes */
      patch(body?: OAuthUpdateClient, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClient; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      /** Delete a client application and end all its grants */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      secret: {
        /** Replace the client secret */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClientCreated; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** Register a client application */
      post(body: OAuthCreateClient, options?: RequestOptions<never>): Promise<Result<{ 201: OAuthClientCreated; 400: ErrorBody; 401: ErrorBody }>>
      /** The caller's client applications (newest first; never the secret) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: OAuthClientPage; 400: ErrorBody; 401: ErrorBody }>>
    }
    grants: ((params: { id: string | number }) => {
      /** Revoke an authorized application */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Applications the caller has authorized (live grants, newest first) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: OAuthGrantPage; 400: ErrorBody; 401: ErrorBody }>>
    }
  }
  api: {
    oauth: {
      authorize: {
        /** Start authorization: the page a client application sends the browser to */
        get(options: RequestOptions<{ response_type: string; client_id: string; redirect_uri: string; scope?: string; state?: string; code_challenge: string; code_challenge_method: string }> & { query: { response_type: string; client_id: string; redirect_uri: string; scope?: string; state?: string; code_challenge: string; code_challenge_method: string } }): Promise<Result<{ 200: string; 302: void; 400: string }>>
        /** Approve an authorization request for the signed-in user (issues the code) */
        post(body: OAuthAuthorize, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthAuthorizeResult; 400: ErrorBody; 401: ErrorBody }>>
      }
      signin: {
        exchange: {
          /** Exchange an authorization code for tokens (the token endpoint) */
          post(body: OAuthExchangeRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthTokenResponse; 400: OAuthError; 401: OAuthError }>>
        }
      }
    }
    auth: {
      refresh: {
        /** Refresh an OAuth grant (rotates the refresh token) */
        post(body: OAuthRefreshRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthTokenResponse; 400: OAuthError; 401: OAuthError }>>
      }
      revoke: {
        /** Revoke a grant by its refresh token (RFC 7009) */
        post(body: OAuthRevokeRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthRevokeResult; 400: OAuthError; 401: OAuthError }>>
      }
      me: {
        /** The user behind an access token (check a token) */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthUser; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody }>>
      }
    }
  }
  ".well-known": {
    "oauth-authorization-server": {
      /** Authorization server metadata (RFC 8414) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthAuthorizationServerMetadata; 400: ErrorBody }>>
    }
  }
  registry: {
    organizations: ((params: { id: string | number }) => {
      /** One organization (members only; 404 otherwise) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryOrganization; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Create an organization with its namespace, admin team and first ecosystem */
      post(body: RegistryProvision, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryProvisionedOrganization; 400: ErrorBody; 401: ErrorBody; 409: ErrorBody }>>
      /** Organizations the caller is a member of */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryOrganizationPage; 400: ErrorBody; 401: ErrorBody }>>
    }
    namespaces: ((params: { id: string | number }) => {
      /** Rename a namespace (its rdid prefix never changes) */
      patch(body?: RegistryNamespacePatch, options?: RequestOptions<never>): Promise<Result<{ 200: RegistryNamespaceUpdate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }) & {
      /** The caller's namespaces */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryNamespacePage; 400: ErrorBody; 401: ErrorBody }>>
    }
    ecosystems: ((params: { id: string | number }) => {
      /** One ecosystem (members of its organization only) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      /** Rename an ecosystem (admin or owner) */
      patch(body?: RegistryEcosystemPatch, options?: RequestOptions<never>): Promise<Result<{ 200: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete an ecosystem and everything in it (owner only) */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Add an ecosystem to an organization (admin or owner) */
      post(body: RegistryEcosystemCreate, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryEcosystem; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Ecosystems the caller can reach */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: RegistryEcosystemPage; 400: ErrorBody; 401: ErrorBody }>>
    }
    resolve: ((params: { rdid: string | number }) => {
      /** Resolve a reverse-domain identifier (public) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: RegistryIdentifier; 400: ErrorBody; 404: ErrorBody }>>
    })
    identifiers: {
      /** Map an rdid to an entity */
      post(body: RegistryIdentifierCreate, options?: RequestOptions<never>): Promise<Result<{ 201: RegistryIdentifier; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Identifiers that resolve to an entity */
      get(options: RequestOptions<{ page?: number; pageSize?: number; entityId: string }> & { query: { page?: number; pageSize?: number; entityId: string } }): Promise<Result<{ 200: RegistryIdentifierPage; 400: ErrorBody; 401: ErrorBody }>>
    }
  }
  team: {
    members: ((params: { id: string | number }) => {
      /** Change a member's role (admin or owner) */
      patch(body: TeamMemberPatch, options?: RequestOptions<never>): Promise<Result<{ 200: TeamMember; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Remove a member, or leave */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }) & {
      /** Members of an organization's team (members only) */
      get(options: RequestOptions<{ page?: number; pageSize?: number; organizationId: string }> & { query: { page?: number; pageSize?: number; organizationId: string } }): Promise<Result<{ 200: TeamMemberPage; 400: ErrorBody; 401: ErrorBody; 404: ErrorBody }>>
      /** Add an existing account to the team (admin or owner) */
      post(body: TeamMemberAdd, options?: RequestOptions<never>): Promise<Result<{ 201: TeamMember; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
  }
  customer: {
    resolve: {
      /** The customer id for an external id, created on first use */
      post(body: CustomerResolve, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerResolveResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    register: {
      /** Provision a new customer */
      post(body?: CustomerRegister, options?: RequestOptions<never>): Promise<Result<{ 201: CustomerRegisterResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    token: {
      /** Issue tokens for a customer (from your backend) */
      post(body: CustomerToken, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerAuthResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    refresh: {
      /** Rotate a customer refresh token */
      post(body: CustomerRefresh, options?: RequestOptions<never>): Promise<Result<{ 200: CustomerAuthResult; 400: ErrorBody; 401: ErrorBody }>>
    }
    revoke: {
      /** Sign a customer out (unknown tokens are ignored) */
      post(body: CustomerRefresh, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody }>>
    }
    me: {
      /** The calling customer */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    customers: ((params: { id: string | number }) => {
      /** One customer */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change a customer */
      patch(body?: CustomerPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Customer; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete a customer with its sessions and data */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Customers of the ecosystem, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; q?: string }>): Promise<Result<{ 200: CustomerPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  storage: {
    uploads: {
      /** Start an upload: a pending attachment and a presigned PUT URL */
      post(body: StorageUpload, options?: RequestOptions<never>): Promise<Result<{ 200: StorageDeduplicated; 201: StoragePresignedUpload; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 413: StorageQuotaExceeded }>>
    }
    attachments: ((params: { id: string | number }) => {
      /** One attachment */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Rename, re-attach (ownerType/ownerId) or change metadata */
      patch(body?: StorageAttachmentPatch, options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete an attachment */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      complete: {
        /** Confirm the bytes arrived: pending → ready */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: StorageAttachmentEnvelope; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 413: StorageQuotaExceeded }>>
      }
      download: {
        /** A presigned download URL */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: StorageDownload; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
    }) & {
      /** Your attachments, newest first (deleted ones excluded) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; ownerType?: string; ownerId?: string; status?: "pending" | "ready" }>): Promise<Result<{ 200: StorageAttachmentPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  usage: {
    storage: {
      /** Your storage quota and usage */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      customers: ((params: { userId: string | number }) => {
        /** A customer's storage quota and usage */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuota; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      })
      quotas: ((params: { userId: string | number }) => {
        /** Set a customer's quota in this ecosystem */
        put(body: StorageQuota, options?: RequestOptions<never>): Promise<Result<{ 200: UsageStorageQuotaRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
        /** Remove a customer's quota override */
        delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }) & {
        /** Quota overrides in the ecosystem, latest first */
        get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: UsageStorageQuotaPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }
  }
  persona: {
    "service-templates": {
      /** Built-in persona service templates */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaServiceTemplate[]; 400: ErrorBody }>>
    }
    services: ((params: { id: string | number }) => {
      /** One persona service */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Rename a persona service, or change its base URL or key */
      patch(body?: PersonaServicePatch, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete a persona service */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      connect: {
        /** Connect: list the provider's models */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** Persona services of the ecosystem, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: PersonaServicePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Add a persona service */
      post(body?: PersonaServiceCreate, options?: RequestOptions<never>): Promise<Result<{ 201: PersonaService; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    personas: ((params: { id: string | number }) => {
      /** One persona */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change a persona */
      patch(body?: PersonaPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete a persona */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Personas of the ecosystem, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: PersonaPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create a persona */
      post(body: PersonaCreate, options?: RequestOptions<never>): Promise<Result<{ 201: Persona; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
  }
  public: {
    personas: ((params: { slug: string | number }) => {
      /** A public or unlisted persona by slug */
      get(options?: RequestOptions<{ ecosystem?: string }>): Promise<Result<{ 200: PublicPersona; 400: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }) & {
      /** Public personas, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; ecosystem?: string }>): Promise<Result<{ 200: PublicPersonaPage; 400: ErrorBody; 404: ErrorBody }>>
    }
    users: ((params: { slug: string | number }) => {
      /** The public profile of a user, by login slug */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: PublicUserProfile; 400: ErrorBody; 404: ErrorBody }>>
    })
  }
  chat: {
    conversations: ((params: { id: string | number }) => {
      /** A conversation with its messages */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: ChatConversationDetail; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Rename a conversation */
      patch(body: ChatConversationRename, options?: RequestOptions<never>): Promise<Result<{ 200: ChatConversation; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete a conversation */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      messages: ((params: { messageId: string | number }) => {
        /** Edit a user message */
        patch(body: ChatMessageEdit, options?: RequestOptions<never>): Promise<Result<{ 200: ChatMessage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }) & {
        /** Send a message and stream the reply */
        post(body: ChatSendMessage, options?: RequestOptions<never>): Promise<Result<{ 200: AsyncGenerator<ChatStreamEvent>; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
      regenerate: {
        /** Stream a new reply to the last user message */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: AsyncGenerator<ChatStreamEvent>; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
    }) & {
      /** Start a conversation */
      post(body?: ChatConversationCreate, options?: RequestOptions<never>): Promise<Result<{ 201: ChatConversation; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Conversations, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: ChatConversationPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  persona_memory: {
    memories: ((params: { id: string | number }) => {
      /** One memory */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Edit a memory */
      patch(body?: PersonaMemoryPatch, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete a memory (soft delete) */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      archive: {
        /** Archive a memory (no longer recalled) */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
      restore: {
        /** Restore an archived memory */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
    }) & {
      /** Memories the caller sees, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; personaId?: string; scope?: "user" | "persona"; status?: "active" | "superseded" | "archived"; memoryType?: "user" | "feedback" | "project" | "reference"; tag?: string; subjectTable?: string; subjectId?: string }>): Promise<Result<{ 200: PersonaMemoryPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Remember something */
      post(body: PersonaMemoryCreate, options?: RequestOptions<never>): Promise<Result<{ 201: PersonaMemory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    recall: {
      /** The memories most similar to a query */
      post(body: PersonaMemoryRecall, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemoryRecallResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 503: ErrorBody }>>
    }
    embed: {
      /** Embed memories waiting for an embedding */
      post(body?: PersonaMemoryEmbed, options?: RequestOptions<never>): Promise<Result<{ 200: PersonaMemoryEmbedResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  search: {
    chat: {
      messages: {
        /** Full-text search of the caller's chat messages */
        get(options: RequestOptions<{ q: string; page?: number; pageSize?: number }> & { query: { q: string; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchChatMessagePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }
    settings: {
      /** The ecosystem’s search defaults */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: SearchSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change the ecosystem’s search defaults */
      put(body: SearchSettings, options?: RequestOptions<never>): Promise<Result<{ 200: SearchSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    threads: {
      /** Full-text search of community threads (title and body) */
      get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDiscussionThreadPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    replies: {
      /** Full-text search of community replies */
      get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDiscussionReplyPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    documents: {
      /** Full-text search of document blocks */
      get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchDocumentPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    notes: {
      /** Full-text search of the caller's notes (title and body) */
      get(options: RequestOptions<{ q: string; language?: "english" | "simple"; page?: number; pageSize?: number }> & { query: { q: string; language?: "english" | "simple"; page?: number; pageSize?: number } }): Promise<Result<{ 200: SearchNotePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  data: {
    documents: ((params: { id: string | number }) => {
      /** One of documents */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of documents */
      patch(body?: DataDocumentPatch, options?: RequestOptions<never>): Promise<Result<{ 200: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete one of documents */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List documents */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: DataDocumentsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of documents */
      post(body: DataDocumentCreate, options?: RequestOptions<never>): Promise<Result<{ 201: DataDocument; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    document_blocks: ((params: { id: string | number }) => {
      /** One of document blocks */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of document blocks */
      patch(body?: DataDocumentBlockPatch, options?: RequestOptions<never>): Promise<Result<{ 200: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete one of document blocks */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List document blocks */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: DataDocumentBlocksPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of document blocks */
      post(body: DataDocumentBlockCreate, options?: RequestOptions<never>): Promise<Result<{ 201: DataDocumentBlock; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  userdata: {
    notes: ((params: { id: string | number }) => {
      /** One of notes */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of notes */
      patch(body?: UserdataNotePatch, options?: RequestOptions<never>): Promise<Result<{ 200: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete one of notes */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List notes */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: UserdataNotesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of notes */
      post(body: UserdataNoteCreate, options?: RequestOptions<never>): Promise<Result<{ 201: UserdataNote; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  contract: {
    contracts: ((params: { name: string | number }) => {
      /** One contract */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Add or drop columns, change access */
      patch(body?: ContractPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete a contract and its rows */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      rows: ((params: { id: string | number }) => {
        /** One row */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
        /** Change values of a row */
        patch(body?: ContractValues, options?: RequestOptions<never>): Promise<Result<{ 200: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
        /** Delete a row */
        delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }) & {
        /** A contract's rows */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: ContractRowList; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
        /** Add a row */
        post(body?: ContractValues, options?: RequestOptions<never>): Promise<Result<{ 201: ContractRow; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      }
    }) & {
      /** The ecosystem's contracts */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Contract[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Define a contract (a run-time table) */
      post(body: ContractCreate, options?: RequestOptions<never>): Promise<Result<{ 201: Contract; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
  }
  messaging: {
    templates: ((params: { id: string | number }) => {
      /** One template */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change a template */
      patch(body?: MessagingTemplatePatch, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete a template */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      preview: {
        /** Render a template without sending it */
        post(body?: MessagingPreviewRequest, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingPreview; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** Message templates, by name */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingTemplatePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create a template */
      post(body: MessagingTemplateCreate, options?: RequestOptions<never>): Promise<Result<{ 201: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    status: {
      /** Whether real e-mail and SMS providers are configured */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: MessagingStatus; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    email: {
      /** E-mail a customer */
      post(body: MessagingEmailSend, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingSendResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    sms: {
      /** Text a customer */
      post(body: MessagingSmsSend, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingSendResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    log: {
      /** Send attempts, newest first */
      get(options?: RequestOptions<{ channel?: "email" | "sms"; status?: "sent" | "failed"; customerId?: string; since?: string; until?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingLogPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    outbox: {
      /** Messages kept locally because no provider is configured */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingOutboxPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      instance: {
        /** The instance’s own e-mails kept locally (platform admins) */
        get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingOutboxPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody }>>
      }
    }
  }
  notifications: {
    /** Notifications, newest first */
    get(options?: RequestOptions<{ unread?: boolean; page?: number; pageSize?: number }>): Promise<Result<{ 200: NotificationPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    "read-all": {
      /** Mark every notification read */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: NotificationsReadAllResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    preferences: ((params: { category: string | number }) => {
      /** Choose e-mail and SMS for a category */
      put(body: NotificationPreferenceUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: NotificationPreference; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** E-mail and SMS choices per category */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: NotificationPreference[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    announcements: {
      /** Notify every customer of the ecosystem */
      post(body: NotificationAnnouncement, options?: RequestOptions<never>): Promise<Result<{ 202: NotificationAnnouncementResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    read: ((params: { id: string | number }) => {
      /** Mark a notification read */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: Notification; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    })
    unsubscribe: {
      /** One-click unsubscribe (RFC 8058) */
      post(body: undefined, options: RequestOptions<{ token: string }> & { query: { token: string } }): Promise<Result<{ 200: NotificationPreference; 400: ErrorBody; 404: ErrorBody }>>
      /** The page behind the unsubscribe link */
      get(options: RequestOptions<{ token: string }> & { query: { token: string } }): Promise<Result<{ 200: string; 400: ErrorBody }>>
    }
  }
  community: {
    categories: ((params: { id: string | number }) => {
      /** One of categories */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of categories */
      patch(body?: CommunityCategoryPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
      /** Delete one of categories */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }) & {
      /** List categories */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: CommunityCategoriesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of categories */
      post(body: CommunityCategoryCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    threads: ((params: { id: string | number }) => {
      /** One of threads */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of threads */
      patch(body?: CommunityThreadPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete one of threads */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List threads */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: CommunityThreadsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of threads */
      post(body: CommunityThreadCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    replies: ((params: { id: string | number }) => {
      /** One of replies */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change one of replies */
      patch(body: CommunityReplyPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete one of replies */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** List replies */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; includeDeleted?: boolean }>): Promise<Result<{ 200: CommunityRepliesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Create one of replies */
      post(body: CommunityReplyCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody }>>
    }
    points: {
      /** Award or deduct points */
      post(body: CommunityPointsAward, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPoints; 201: CommunityPoints; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** A customer’s points ledger, newest first */
      get(options?: RequestOptions<{ customerId?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityPointsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      rules: {
        /** Points per action */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPointRules; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
        /** Change the points per action */
        put(body: CommunityPointRules, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPointRules; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }
    badges: ((params: { id: string | number }) => {
      /** Change a badge */
      patch(body?: CommunityBadgePatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityBadge; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete a badge */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }) & {
      /** Badge definitions */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityBadge[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Define a badge */
      post(body: CommunityBadgeCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityBadge; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    users: ((params: { customerId: string | number }) => {
      /** A customer’s community summary */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityProfile; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      badges: {
        /** A customer’s badges, in the order earned */
        get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityUserBadge[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    })
    levels: {
      /** Levels, by minPoints */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityLevel[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Replace the levels */
      put(body: CommunityLevelsReplace, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityLevel[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    leaderboard: {
      /** Ranking by points in a period */
      get(options?: RequestOptions<{ period?: "all_time" | "year" | "month" | "week" | "day"; page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityLeaderboard; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  integrations: {
    events: {
      /** The event types an endpoint can subscribe to */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: WebhookEventTypes; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
    webhooks: ((params: { id: string | number }) => {
      /** One endpoint (never its secret) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: Webhook; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change an endpoint */
      patch(body?: WebhookPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Webhook; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Delete an endpoint */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      "rotate-secret": {
        /** A new signing secret */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookWithSecret; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
      test: {
        /** Queue a `webhook.test` event to this endpoint */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookDelivery; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
      deliveries: ((params: { deliveryId: string | number }) => {
        retry: {
          /** Send a delivery again */
          post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookDelivery; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
        }
      }) & {
        /** Deliveries to this endpoint, newest first */
        get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: WebhookDeliveryPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** The ecosystem’s webhook endpoints */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: WebhookList; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Add an endpoint */
      post(body: WebhookCreate, options?: RequestOptions<never>): Promise<Result<{ 201: WebhookWithSecret; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
  monitored_sites: {
    sites: ((params: { id: string | number }) => {
      /** One site, with uptime % and p95 latency over 24 h, 7 and 30 days */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSiteDetail; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Change a site */
      patch(body?: MonitoredSitePatch, options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSite; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Stop watching a site */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      checks: {
        /** Checks of a site, newest first (kept 31 days) */
        get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MonitoredSiteCheckPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
      check: {
        /** Check a site now */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: MonitoredSiteCheck; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      }
    }) & {
      /** The ecosystem’s monitored sites, oldest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MonitoredSitePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
      /** Watch a URL */
      post(body: MonitoredSiteCreate, options?: RequestOptions<never>): Promise<Result<{ 201: MonitoredSite; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody }>>
    }
  }
}
