import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { paged } from '../../platform/paging'

const Uuid = t.String({ format: 'uuid' })

const Subject = t.String({
  minLength: 1,
  maxLength: 998,
  pattern: '^[^\\r\\n]+$',
  description: 'One line (a header); `{{variable}}` values are folded onto it',
})
const Body = (description: string) => t.String({ maxLength: 100_000, description })
const SmsBody = t.String({ minLength: 1, maxLength: 1600, description: 'Plain text; `{{variable}}` values are inserted as they are' })

export const Variables = t.Record(t.String({ maxLength: 100 }), t.String({ maxLength: 10_000 }), {
  description:
    'Values for `{{name}}` placeholders (HTML-escaped in HTML bodies, as they are in text and SMS). `customer.name`, `customer.email` and `customer.id` are filled in from the customer unless given. A placeholder without a value is 400 `missing_variable` naming it.',
})

/**
 * What a message to a customer is about. Customers choose per category whether they get e-mail and
 * SMS (notification preferences, one-click unsubscribe); `transactional` (receipts, sign-in codes) is
 * what they asked for and always goes, without an unsubscribe link.
 */
export const PREFERENCE_CATEGORIES = ['account', 'community_reply', 'community_mention', 'admin_announcement'] as const
export type PreferenceCategory = (typeof PREFERENCE_CATEGORIES)[number]
export const MESSAGE_CATEGORIES = [...PREFERENCE_CATEGORIES, 'transactional'] as const
export type MessageCategory = (typeof MESSAGE_CATEGORIES)[number]
export const MessageCategory = t.Union(
  MESSAGE_CATEGORIES.map((c) => t.Literal(c)),
  {
    description:
      'What the message is about: a notification category (`account`, `community_reply`, `community_mention`, `admin_announcement`), whose e-mail and SMS each customer may turn off (the send honours it and carries a one-click List-Unsubscribe), or `transactional` (always sent, no unsubscribe link)',
  },
)

export const MessagingTemplate = t.Object(
  {
    id: t.String(),
    name: t.String(),
    subject: t.String(),
    htmlBody: t.String(),
    textBody: t.String(),
    category: t.String(),
    smsBody: t.Optional(t.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'MessagingTemplate',
    examples: [
      {
        id: 'b1a09f8e-7d6c-4b5a-8493-827160f5e4d3',
        name: 'welcome',
        subject: 'Welcome, {{name}}',
        htmlBody: '<p>Hello {{name}}, welcome aboard.</p>',
        textBody: 'Hello {{name}}, welcome aboard.',
        category: 'transactional',
        smsBody: 'Welcome aboard, {{name}}!',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const MessagingTemplatePage = paged(MessagingTemplate, 'MessagingTemplatePage')

const templateFields = {
  name: t.String({ minLength: 1, maxLength: 200, description: 'Unique in the ecosystem (409 `template_name_taken`)' }),
  subject: Subject,
  htmlBody: Body('HTML; `{{variable}}` values are HTML-escaped'),
  textBody: Body('Plain text alternative; `{{variable}}` values are inserted as they are'),
  category: MessageCategory,
  smsBody: t.Optional(t.Union([SmsBody, t.Null()])),
}
export const TemplateCreate = t.Object(templateFields, {
  title: 'MessagingTemplateCreate',
  examples: [
    {
      name: 'welcome',
      subject: 'Welcome, {{name}}',
      htmlBody: '<p>Hello {{name}}, welcome aboard.</p>',
      textBody: 'Hello {{name}}, welcome aboard.',
      category: 'transactional',
      smsBody: 'Welcome aboard, {{name}}!',
    },
  ],
})
export const TemplatePatch = t.Partial(t.Object(templateFields), { title: 'MessagingTemplatePatch', examples: [{ subject: 'Welcome aboard, {{name}}' }] })

export const PreviewBody = t.Object({ variables: t.Optional(Variables) }, { title: 'MessagingPreviewRequest', examples: [{ variables: { name: 'Grace' } }] })
export const MessagingPreview = t.Object(
  { subject: t.String(), htmlBody: t.String(), textBody: t.String(), smsBody: t.Union([t.String(), t.Null()]) },
  {
    title: 'MessagingPreview',
    examples: [
      {
        subject: 'Welcome, Grace',
        htmlBody: '<p>Hello Grace, welcome aboard.</p>',
        textBody: 'Hello Grace, welcome aboard.',
        smsBody: 'Welcome aboard, Grace!',
      },
    ],
  },
)

export const MessagingStatus = t.Object(
  {
    email: t.Boolean({ description: 'An e-mail provider is configured and enabled (the ecosystem’s smtp site service or SMTP_URL); false = the local outbox' }),
    sms: t.Boolean({ description: 'An SMS provider is configured and enabled (the ecosystem’s twilio site service or TWILIO_*); false = the local outbox' }),
  },
  { title: 'MessagingStatus', examples: [{ email: true, sms: false }] },
)

export const MessagingSendResult = t.Object(
  {
    status: t.Union([t.Literal('sent'), t.Literal('failed')]),
    providerId: t.Optional(t.String({ description: 'The provider’s message id (SMTP Message-ID, Twilio SID, or `outbox:<id>`)' })),
    error: t.Optional(t.String({ description: 'The provider’s reason, when it did not take the message' })),
  },
  { title: 'MessagingSendResult', examples: [{ status: 'sent', providerId: '<1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a@api.example.com>' }] },
)

export const EmailSend = t.Object(
  {
    customerId: Uuid,
    templateId: t.Optional(Uuid),
    subject: t.Optional(Subject),
    html: t.Optional(Body('HTML body (without templateId)')),
    text: t.Optional(Body('Plain text body (without templateId); derived from html when omitted')),
    variables: t.Optional(Variables),
    category: t.Optional(
      t.Union(
        MESSAGE_CATEGORIES.map((c) => t.Literal(c)),
        { description: 'Without templateId (default `transactional`); a template’s own category wins' },
      ),
    ),
  },
  {
    title: 'MessagingEmailSend',
    examples: [{ customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170', subject: 'Your trip is booked', text: 'See you in Lisbon!', category: 'transactional' }],
  },
)

export const SmsSend = t.Object(
  {
    customerId: Uuid,
    templateId: t.Optional(Uuid),
    body: t.Optional(SmsBody),
    variables: t.Optional(Variables),
    category: t.Optional(
      t.Union(
        MESSAGE_CATEGORIES.map((c) => t.Literal(c)),
        { description: 'Without templateId (default `transactional`); a template’s own category wins' },
      ),
    ),
  },
  { title: 'MessagingSmsSend', examples: [{ customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170', body: 'Your code is 482913', category: 'transactional' }] },
)

const LogStatus = t.Union([t.Literal('sent'), t.Literal('failed'), t.Literal('delivered'), t.Literal('undelivered')], {
  description:
    '`sent`: the provider took it; `failed`: it did not. An SMS then moves to `delivered`, `undelivered` or `failed` as Twilio reports (status callbacks)',
})

/** What Twilio posts to a message's StatusCallback (form fields; others are ignored). */
export const SmsStatusCallback = t.Object(
  { MessageSid: t.String({ maxLength: 64 }), MessageStatus: t.String({ maxLength: 32 }), ErrorCode: t.Optional(t.String({ maxLength: 16 })) },
  {
    additionalProperties: true,
    title: 'MessagingSmsStatusCallback',
    examples: [{ MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered' }],
  },
)

export const MessagingLogEntry = t.Object(
  {
    id: t.String(),
    customerId: t.String({ description: 'The recipient customer' }),
    deletedAt: t.Optional(t.Union([t.String(), t.Null()])),
    ownerId: t.String({ description: 'The ecosystem id' }),
    channel: t.Union([t.Literal('email'), t.Literal('sms')]),
    recipient: t.String({ description: 'The resolved address or phone number' }),
    subject: t.Optional(t.Union([t.String(), t.Null()])),
    body: t.String({ description: 'The text sent (the plain-text part of an e-mail)' }),
    templateId: t.Optional(t.Union([t.String(), t.Null()])),
    status: LogStatus,
    providerId: t.Optional(t.Union([t.String(), t.Null()])),
    errorMessage: t.Optional(t.Union([t.String(), t.Null()])),
    sentBy: t.Optional(t.Union([t.String(), t.Null()], { description: 'The admin who sent it; null for notification deliveries' })),
    createdAt: t.String(),
  },
  {
    title: 'MessagingLogEntry',
    examples: [
      {
        id: '1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        deletedAt: null,
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        channel: 'email',
        recipient: 'grace@example.com',
        subject: 'Welcome, Grace',
        body: 'Hello Grace, welcome aboard.',
        templateId: 'b1a09f8e-7d6c-4b5a-8493-827160f5e4d3',
        status: 'sent',
        providerId: '<1d2c3b4a-5f6e-4d7c-8b9a-0f1e2d3c4b5a@api.example.com>',
        errorMessage: null,
        sentBy: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
        createdAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const MessagingLogPage = paged(MessagingLogEntry, 'MessagingLogPage')

export const LogQuery = t.Object({
  channel: t.Optional(t.Union([t.Literal('email'), t.Literal('sms')])),
  status: t.Optional(LogStatus),
  customerId: t.Optional(Uuid),
  since: t.Optional(t.String({ maxLength: 40, description: 'Entries at or after this time (ISO 8601)' })),
  until: t.Optional(t.String({ maxLength: 40, description: 'Entries before this time (ISO 8601)' })),
})

export const OutboxMessage = t.Object(
  {
    id: t.String(),
    channel: t.Union([t.Literal('email'), t.Literal('sms')]),
    recipient: t.String(),
    subject: t.Union([t.String(), t.Null()]),
    text: t.String(),
    html: t.Union([t.String(), t.Null()]),
    headers: t.Record(t.String(), t.String()),
    createdAt: Timestamp,
  },
  {
    title: 'MessagingOutboxMessage',
    examples: [
      {
        id: '2e3f4a5b-6c7d-4e8f-9a0b-1c2d3e4f5a6b',
        channel: 'email',
        recipient: 'grace@example.com',
        subject: 'Your trip is booked',
        text: 'See you in Lisbon!',
        html: null,
        headers: {},
        createdAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const OutboxPage = paged(OutboxMessage, 'MessagingOutboxPage')
