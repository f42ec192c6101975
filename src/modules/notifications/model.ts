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
  {
    title: 'Notification',
    examples: [
      {
        id: 'a7b6c5d4-e3f2-4a1b-8c9d-0e1f2a3b4c5d',
        userId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        type: 'community_reply',
        threadId: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908',
        replyId: '4f3e2d1c-0b9a-4c8d-b7e6-a5f4c3b2d1e0',
        actorId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2e',
        subject: 'New reply to “Best cafés near the river?”',
        body: 'Try the one by the old tram stop.',
        isRead: false,
        createdAt: '2026-11-26T09:30:00.000Z',
      },
    ],
  },
)
export const NotificationPage = paged(Notification, 'NotificationPage')

export const CategoryName = t.Union([t.Literal('account'), t.Literal('community_reply'), t.Literal('community_mention'), t.Literal('admin_announcement')])

export const NotificationPreference = t.Object(
  { category: CategoryName, email: t.Boolean(), sms: t.Boolean() },
  { title: 'NotificationPreference', examples: [{ category: 'community_reply', email: true, sms: false }] },
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
  {
    title: 'NotificationAnnouncement',
    examples: [{ subject: 'Maintenance on Sunday', body: 'The service pauses from 02:00 to 02:30 UTC.', channels: ['email'] }],
  },
)
