import { t } from 'elysia'
import { paged } from '../../platform/paging'

export const Notification = t.Object(
  {
    id: t.String(),
    userId: t.String({ description: 'The recipient customer' }),
    ecosystemId: t.String(),
    type: t.String({ description: 'Its category: `account`, `community_reply`, `community_mention` or `admin_announcement`' }),
    threadId: t.String({ description: 'What it is about: the thread, or the announcement id; "" when nothing' }),
    replyId: t.Optional(t.Union([t.String(), t.Null()])),
    actorId: t.String({ description: 'Who caused it (customer or admin user id); "" when the system did' }),
    subject: t.String({ description: 'One-line title (the e-mail subject)' }),
    body: t.String({ description: 'Text' }),
    isRead: t.Boolean(),
    createdAt: t.String(),
  },
  { title: 'Notification' },
)
export const NotificationPage = paged(Notification, 'NotificationPage')

export const CategoryName = t.Union([t.Literal('account'), t.Literal('community_reply'), t.Literal('community_mention'), t.Literal('admin_announcement')])

export const NotificationPreference = t.Object(
  { category: CategoryName, email: t.Boolean(), sms: t.Boolean() },
  { title: 'NotificationPreference' },
)

export const Announcement = t.Object(
  {
    subject: t.String({ minLength: 1, maxLength: 200, pattern: '^[^\\r\\n]+$' }),
    body: t.String({ minLength: 1, maxLength: 10_000 }),
    channels: t.Optional(
      t.Array(t.Union([t.Literal('email'), t.Literal('sms')]), {
        maxItems: 2,
        description: 'Channels besides the in-app notification (default `["email"]`); each customer’s admin_announcement preference still decides',
      }),
    ),
  },
  { title: 'NotificationAnnouncement', examples: [{ subject: 'Maintenance on Sunday', body: 'The service pauses from 02:00 to 02:30 UTC.', channels: ['email'] }] },
)
