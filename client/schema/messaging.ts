// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

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
  category: "account" | "community_reply" | "community_mention" | "admin_announcement" | "transactional"
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
  category?: "account" | "community_reply" | "community_mention" | "admin_announcement" | "transactional"
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
  category?: "account" | "community_reply" | "community_mention" | "admin_announcement" | "transactional"
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
  category?: "account" | "community_reply" | "community_mention" | "admin_announcement" | "transactional"
}

export interface MessagingSmsStatusCallback {
  MessageSid: string
  MessageStatus: string
  ErrorCode?: string
  [key: string]: unknown
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
  status: "sent" | "failed" | "delivered" | "undelivered"
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

/** The routes under /messaging. */
export interface MessagingRoutes {
  templates: ((params: { id: string | number }) => {
    /** One template */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change a template */
    patch(body?: MessagingTemplatePatch, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a template */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    preview: {
      /** Render a template without sending it */
      post(body?: MessagingPreviewRequest, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingPreview; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Message templates, by name */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingTemplatePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create a template */
    post(body: MessagingTemplateCreate, options?: RequestOptions<never>): Promise<Result<{ 201: MessagingTemplate; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  status: {
    /** Whether real e-mail and SMS providers are configured */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: MessagingStatus; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  email: {
    /** E-mail a customer */
    post(body: MessagingEmailSend, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingSendResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  sms: {
    /** Text a customer */
    post(body: MessagingSmsSend, options?: RequestOptions<never>): Promise<Result<{ 200: MessagingSendResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    status: {
      /** Twilio’s status callback for an SMS */
      post(body: MessagingSmsStatusCallback, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
  }
  log: {
    /** Send attempts, newest first */
    get(options?: RequestOptions<{ channel?: "email" | "sms"; status?: "sent" | "failed" | "delivered" | "undelivered"; customerId?: string; since?: string; until?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingLogPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  outbox: {
    /** Messages kept locally because no provider is configured */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingOutboxPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    instance: {
      /** The instance’s own e-mails kept locally (platform admins) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: MessagingOutboxPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
  }
}
