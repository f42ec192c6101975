import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import { pageParams, PageQuery } from '../../platform/paging'
import { Announcement, CategoryName, Notification, NotificationPage, NotificationPreference } from './model'
import { type NotificationsService, UNSUBSCRIBE_PATH } from './service'
import { IdParam } from '../../platform/params'

const OWN = 'The calling customer’s own (a team member acts through its own customer record).'
const Token = t.Object({ token: t.String({ minLength: 1, maxLength: 300 }) })

/** What a mail client or a person sees at the unsubscribe link. */
const page = (title: string, text: string, form?: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title}</title>` +
  `<body style="font-family:system-ui;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1>${title}</h1><p>${text}</p>${form ?? ''}</body></html>`

/** In-app notifications, preferences and announcements (tag `notifications`). */
export function notificationRoutes(notifications: NotificationsService, guards: Guards) {
  return new Elysia({ name: 'notifications', prefix: '/notifications', detail: { tags: ['notifications'] } })
    .use(guards.tenancy)
    .get('', ({ tenant, query }) => notifications.list(tenant, query, pageParams(query)), {
      tenant: 'customer',
      query: t.Composite([
        t.Object({
          unread: t.Optional(t.Boolean({ description: 'Only unread ones' })),
          type: t.Optional(t.Union(CategoryName.anyOf, { description: 'Only notifications of this type (category)' })),
        }),
        PageQuery,
      ]),
      response: { 200: NotificationPage },
      detail: { operationId: 'notificationsList', summary: 'Notifications, newest first', description: OWN },
    })
    .get('/unread-count', ({ tenant }) => notifications.unreadCount(tenant), {
      tenant: 'customer',
      response: { 200: t.Object({ count: t.Integer({ minimum: 0 }) }, { title: 'NotificationUnreadCount', examples: [{ count: 2 }] }) },
      detail: { operationId: 'notificationsUnreadCount', summary: 'How many notifications are unread (for a badge)', description: OWN },
    })
    .post('/read-all', ({ tenant }) => notifications.markAllRead(tenant), {
      tenant: 'customer',
      response: { 200: t.Object({ updated: t.Integer() }, { title: 'NotificationsReadAllResult', examples: [{ updated: 2 }] }) },
      detail: { operationId: 'notificationsReadAll', summary: 'Mark every notification read', description: OWN },
    })
    .get('/preferences', ({ tenant }) => notifications.preferences(tenant), {
      tenant: 'customer',
      response: {
        200: t.Array(NotificationPreference, {
          examples: [
            [
              { category: 'account', email: true, sms: false },
              { category: 'community_reply', email: true, sms: false },
              { category: 'community_mention', email: false, sms: false },
              { category: 'admin_announcement', email: false, sms: false },
            ],
          ],
        }),
      },
      detail: {
        operationId: 'notificationsPreferences',
        summary: 'E-mail and SMS choices per category',
        description: `All four categories. Defaults: e-mail on for \`account\` and \`community_reply\`, off for \`community_mention\` and \`admin_announcement\`; SMS off. The in-app notification is always recorded. ${OWN}`,
      },
    })
    .put('/preferences/:category', ({ tenant, params, body }) => notifications.setPreference(tenant, params.category, body), {
      tenant: 'customer',
      params: t.Object({ category: CategoryName }),
      body: t.Object({ email: t.Boolean(), sms: t.Boolean() }, { title: 'NotificationPreferenceUpdate', examples: [{ email: true, sms: false }] }),
      response: { 200: NotificationPreference },
      detail: { operationId: 'notificationsSetPreference', summary: 'Choose e-mail and SMS for a category', description: OWN },
    })
    .post(
      '/announcements',
      async ({ tenant, body, set }) => {
        const result = await notifications.announce(tenant, body)
        set.status = 202
        return result
      },
      {
        tenant: 'admin',
        body: Announcement,
        response: { 202: t.Object({ recipients: t.Integer() }, { title: 'NotificationAnnouncementResult', examples: [{ recipients: 1280 }] }) },
        detail: {
          operationId: 'notificationsAnnounce',
          summary: 'Notify every customer of the ecosystem',
          description:
            'One `admin_announcement` notification per customer (team members’ own records excepted), written by queued batches after the answer; `recipients` is the count at the time of the request. Each customer gets it exactly once, also when the fan-out is interrupted by a restart. E-mail/SMS copies follow each customer’s preference.',
        },
      },
    )
    .post('/read/:id', ({ tenant, params }) => notifications.markRead(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: Notification },
      detail: { operationId: 'notificationsRead', summary: 'Mark a notification read', description: OWN },
    })
    .post(
      UNSUBSCRIBE_PATH.replace('/notifications', ''),
      async ({ query, request }) => {
        const preference = await notifications.unsubscribe(query.token)
        if (!request.headers.get('accept')?.includes('text/html')) return preference
        // A person who pressed the page's button gets a page back; Elysia sends a Response as it is.
        return new Response(page('Unsubscribed', 'You will not get these e-mails any more. You can turn them back on in your notification settings.'), {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }) as unknown as typeof preference
      },
      {
        parse: 'none',
        query: Token,
        response: { 200: NotificationPreference, ...errors(404, { 400: ['validation_failed', 'invalid_token'] }) },
        detail: {
          operationId: 'notificationsUnsubscribe',
          summary: 'One-click unsubscribe (RFC 8058)',
          description:
            'The URL in a notification e-mail’s `List-Unsubscribe` header (with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`): a POST turns e-mail off for that category in the recipient’s preferences. The token is signed by the server; no credentials. Any body is ignored; a browser (Accept: text/html) gets a page instead of JSON.',
          security: [],
        },
      },
    )
    .get(
      UNSUBSCRIBE_PATH.replace('/notifications', ''),
      ({ query, set }) => {
        set.headers['content-type'] = 'text/html; charset=utf-8'
        set.headers['content-security-policy'] = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"
        const action = `${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(query.token)}`
        return page(
          'Unsubscribe',
          'Stop receiving these e-mails?',
          `<form method="post" action="${action.replace(/"/g, '&quot;')}"><button>Unsubscribe</button></form>`,
        )
      },
      {
        query: Token,
        detail: {
          operationId: 'notificationsUnsubscribePage',
          summary: 'The page behind the unsubscribe link',
          description: 'A page with one button that POSTs to the same URL; opening it changes nothing (mail scanners follow links).',
          security: [],
          responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
        },
      },
    )
}
