// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

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

export interface NotificationUnreadCount {
  count: number
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

/** The routes under /notifications. */
export interface NotificationsRoutes {
  /** Notifications, newest first */
  get(options?: RequestOptions<{ unread?: boolean; type?: "account" | "community_reply" | "community_mention" | "admin_announcement"; page?: number; pageSize?: number }>): Promise<Result<{ 200: NotificationPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  "unread-count": {
    /** How many notifications are unread (for a badge) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: NotificationUnreadCount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  "read-all": {
    /** Mark every notification read */
    post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: NotificationsReadAllResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  preferences: ((params: { category: string | number }) => {
    /** Choose e-mail and SMS for a category */
    put(body: NotificationPreferenceUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: NotificationPreference; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** E-mail and SMS choices per category */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: NotificationPreference[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  announcements: {
    /** Notify every customer of the ecosystem */
    post(body: NotificationAnnouncement, options?: RequestOptions<never>): Promise<Result<{ 202: NotificationAnnouncementResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  read: ((params: { id: string | number }) => {
    /** Mark a notification read */
    post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: Notification; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  })
  unsubscribe: {
    /** One-click unsubscribe (RFC 8058) */
    post(body: undefined, options: RequestOptions<{ token: string }> & { query: { token: string } }): Promise<Result<{ 200: NotificationPreference; 400: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** The page behind the unsubscribe link */
    get(options: RequestOptions<{ token: string }> & { query: { token: string } }): Promise<Result<{ 200: string; 400: ErrorBody; 429: ErrorBody }>>
  }
}
