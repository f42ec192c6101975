import { expect } from 'bun:test'
import { createHash } from 'node:crypto'
import * as OTPAuth from 'otpauth'
import Twilio from 'twilio'
import { softwareAuthenticator } from './authenticator'
import type { startFakeStripe } from './fake-stripe'
import type { CallOptions, Harness } from './harness'
import type { startSmtp } from './smtp'
import { until } from './wait'

// The steps of tests/openapi-tour.test.ts: every operation of the OpenAPI document with a request
// body or an answer example, in an order a real integration would follow.

/** What the tour has learned so far: ids, tokens and secrets from earlier answers. */
export type Context = Record<string, any>
export type Who = 'none' | 'user' | 'admin' | 'customer' | ((c: Context) => CallOptions)

export interface Step {
  /** `METHOD /path/{param}` as the document names it. */
  op: string
  as?: Who
  params?: (c: Context) => Record<string, string>
  query?: (c: Context) => string
  /** The body to send, from the request example: only ids, secrets and codes are replaced. */
  body?: (example: any, c: Context) => unknown
  form?: boolean
  /** Extra headers; `form` is a form body's fields, for a provider's signature over them. */
  headers?: (c: Context, form: Record<string, string>) => Record<string, string>
  /** Runs before the call (a mail to wait for, a provider to prepare). */
  before?: (c: Context) => Promise<void>
  then?: (answer: any, c: Context) => unknown
  /** Whether the operation applies to this setup (backups are the embedded mode's). */
  when?: () => boolean
}

/** What the steps reach besides the answers: the server under test and the peers it talks to. */
export interface Tour {
  readonly h: Harness
  smtp: Awaited<ReturnType<typeof startSmtp>>
  stripe: ReturnType<typeof startFakeStripe>
  stripeKeys: { stripeWebhookSecret: string }
  twilioAccount: { accountSid: string; authToken: string }
}

export const asAdmin = (c: Context): CallOptions => ({ token: c.token, headers: { 'x-ecosystem-id': c.eco } })

export function tourSteps(t: Tour): Step[] {
  const mailTo = async (address: string, pattern: RegExp) => {
    let found: RegExpExecArray | null = null
    await until(() => t.smtp.received.some((m) => m.envelope.to.includes(address) && (found = pattern.exec(m.parsed.text ?? ''))))
    return found![1]!
  }
  const totp = (secret: string, steps = 0) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: Date.now() + steps * 30_000,
    })
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
  const FILE = new TextEncoder().encode('%PDF-1.7 boarding pass, seat 14C')

  return [
    // The quick start (docs/api/client.md, examples/vite-react), as it is written.
    { op: 'POST /auth/register', as: 'none', then: (a, c) => Object.assign(c, { userId: a.user.id }) },
    { op: 'POST /auth/login', as: 'none', then: (a, c) => Object.assign(c, { token: a.token, refreshToken: a.refreshToken }) },
    {
      op: 'POST /registry/organizations',
      as: 'user',
      then: (a, c) => Object.assign(c, { orgId: a.organization.id, namespaceId: a.namespace.id, eco: a.ecosystem.id }),
    },
    { op: 'POST /customer/resolve', as: 'admin', then: (a, c) => Object.assign(c, { customerId: a.customerId }) },
    {
      op: 'POST /customer/token',
      as: 'admin',
      body: (ex, c) => ({ ...ex, customerId: c.customerId }),
      then: (a, c) => Object.assign(c, { customer: a.token, customerRefresh: a.refreshToken }),
    },
    { op: 'POST /chat/conversations', as: 'customer', then: (a, c) => Object.assign(c, { conversationId: a.id }) },

    // The instance and the account.
    { op: 'GET /health', as: 'none' },
    { op: 'GET /health/live', as: 'none' },
    { op: 'GET /health/ready', as: 'none' },
    { op: 'GET /site/version', as: 'none' },
    { op: 'GET /auth/first-run', as: 'none' },
    {
      op: 'POST /auth/refresh',
      as: 'none',
      body: (ex, c) => ({ ...ex, refreshToken: c.refreshToken }),
      then: (a, c) => Object.assign(c, { token: a.token, refreshToken: a.refreshToken }),
    },
    {
      op: 'POST /auth/revoke',
      as: 'none',
      body: async (ex) => ({
        ...ex,
        refreshToken: (await t.h.call('POST', '/auth/login', { body: { email: 'ada@example.com', password: 'correct horse battery staple' } })).body
          .refreshToken,
      }),
    },
    { op: 'GET /auth/me', as: 'user' },
    { op: 'PATCH /auth/me', as: 'user' },
    { op: 'GET /auth/slug-available/{slug}', as: 'user', params: () => ({ slug: 'grace' }) },
    { op: 'POST /auth/tokens', as: 'user' },
    { op: 'GET /auth/tokens', as: 'user' },
    { op: 'GET /auth/methods', as: 'user' },
    { op: 'POST /auth/verify-email/request', as: 'user' },
    { op: 'POST /auth/verify-email/confirm', as: 'none', body: async (ex) => ({ ...ex, token: await mailTo('ada@example.com', /use this code:\n(\S+)/) }) },
    { op: 'GET /settings/auth-methods', as: 'user' },
    {
      op: 'PUT /settings/auth-methods/{method}',
      as: 'user',
      params: () => ({ method: 'password' }),
      then: async (_, c) => expect((await t.h.call('PUT', '/settings/auth-methods/password', { token: c.token, body: { enabled: true } })).status).toBe(200),
    },

    // Organizations, ecosystems, names, the team.
    { op: 'GET /registry/organizations', as: 'user' },
    { op: 'GET /registry/organizations/{id}', as: 'user', params: (c) => ({ id: c.orgId }) },
    { op: 'GET /registry/namespaces', as: 'user' },
    { op: 'PATCH /registry/namespaces/{id}', as: 'user', params: (c) => ({ id: c.namespaceId }) },
    { op: 'POST /registry/ecosystems', as: 'user', body: (ex, c) => ({ ...ex, organizationId: c.orgId }), then: (a, c) => Object.assign(c, { staging: a.id }) },
    { op: 'GET /registry/ecosystems', as: 'user' },
    { op: 'GET /registry/ecosystems/{id}', as: 'user', params: (c) => ({ id: c.staging }) },
    { op: 'PATCH /registry/ecosystems/{id}', as: 'user', params: (c) => ({ id: c.staging }) },
    {
      op: 'POST /team/members',
      as: 'user',
      before: async () => void (await t.h.register({ email: 'grace@example.com' })),
      body: (ex, c) => ({ ...ex, organizationId: c.orgId }),
      then: (a, c) => Object.assign(c, { memberId: a.id }),
    },
    { op: 'PATCH /team/members/{id}', as: 'user', params: (c) => ({ id: c.memberId }) },
    { op: 'GET /team/members', as: 'user', query: (c) => `organizationId=${c.orgId}` },
    { op: 'GET /audit/events', as: 'admin' },

    // Customers.
    { op: 'POST /customer/register', as: 'admin' },
    {
      op: 'POST /customer/refresh',
      as: 'none',
      body: (ex, c) => ({ ...ex, refreshToken: c.customerRefresh }),
      then: (a, c) => Object.assign(c, { customer: a.token, customerRefresh: a.refreshToken }),
    },
    {
      op: 'POST /customer/revoke',
      as: 'none',
      body: async (ex, c) => ({
        ...ex,
        refreshToken: (await t.h.call('POST', '/customer/token', { ...asAdmin(c), body: { customerId: c.customerId } })).body.refreshToken,
      }),
    },
    { op: 'GET /customer/me', as: 'customer' },
    { op: 'POST /customer/support-sessions', as: 'admin', body: (ex, c) => ({ ...ex, customerId: c.customerId }) },
    { op: 'GET /customer/customers', as: 'admin' },
    { op: 'GET /customer/customers/{id}', as: 'admin', params: (c) => ({ id: c.customerId }) },
    { op: 'PATCH /customer/customers/{id}', as: 'admin', params: (c) => ({ id: c.customerId }) },

    // OAuth: a client application signs Ada in.
    { op: 'POST /oauth/clients', as: 'user', then: (a, c) => Object.assign(c, { client: a }) },
    { op: 'GET /oauth/clients', as: 'user' },
    { op: 'GET /oauth/clients/{id}', as: 'user', params: (c) => ({ id: c.client.id }) },
    { op: 'PATCH /oauth/clients/{id}', as: 'user', params: (c) => ({ id: c.client.id }) },
    {
      op: 'POST /oauth/clients/{id}/secret',
      as: 'user',
      params: (c) => ({ id: c.client.id }),
      then: (a, c) => Object.assign(c.client, { clientSecret: a.clientSecret }),
    },
    { op: 'GET /.well-known/oauth-authorization-server', as: 'none' },
    {
      op: 'POST /api/oauth/authorize',
      as: 'user',
      body: (ex, c) => ({ ...ex, client_id: c.client.clientId }),
      then: (a, c) => Object.assign(c, { code: a.code }),
    },
    {
      op: 'POST /api/oauth/signin/exchange',
      as: 'none',
      form: true,
      body: (ex, c) => ({ ...ex, code: c.code, client_id: c.client.clientId, client_secret: c.client.clientSecret }),
      then: (a, c) => Object.assign(c, { oauthToken: a.access_token, oauthRefresh: a.refresh_token }),
    },
    { op: 'GET /api/auth/me', as: (c) => ({ token: c.oauthToken }) },
    {
      op: 'POST /api/auth/refresh',
      as: 'none',
      form: true,
      body: (ex, c) => ({ ...ex, refresh_token: c.oauthRefresh, client_id: c.client.clientId, client_secret: c.client.clientSecret }),
      then: (a, c) => Object.assign(c, { oauthRefresh: a.refresh_token }),
    },
    { op: 'GET /oauth/grants', as: 'user' },
    {
      op: 'POST /api/auth/revoke',
      as: 'none',
      form: true,
      body: (ex, c) => ({ ...ex, token: c.oauthRefresh, client_id: c.client.clientId, client_secret: c.client.clientSecret }),
    },

    // Files and quotas.
    {
      op: 'POST /storage/uploads',
      as: 'customer',
      body: (ex) => ({ ...ex, sizeBytes: FILE.byteLength, contentHash: sha256(FILE) }),
      then: async (a, c) => {
        const put = await t.h.app.handle(new Request(a.uploadUrl, { method: 'PUT', headers: a.uploadHeaders, body: FILE }))
        expect(put.status).toBe(200)
        c.attachmentId = a.attachment.id
      },
    },
    { op: 'POST /storage/attachments/{id}/complete', as: 'customer', params: (c) => ({ id: c.attachmentId }) },
    { op: 'GET /storage/attachments', as: 'customer' },
    { op: 'GET /storage/attachments/{id}', as: 'customer', params: (c) => ({ id: c.attachmentId }) },
    { op: 'PATCH /storage/attachments/{id}', as: 'customer', params: (c) => ({ id: c.attachmentId }) },
    { op: 'GET /storage/attachments/{id}/download', as: 'customer', params: (c) => ({ id: c.attachmentId }) },
    { op: 'PUT /usage/storage/quotas/{userId}', as: 'admin', params: (c) => ({ userId: c.customerId }) },
    { op: 'GET /usage/storage/quotas', as: 'admin' },
    { op: 'GET /usage/storage', as: 'admin' },
    { op: 'GET /usage/storage/customers/{userId}', as: 'admin', params: (c) => ({ userId: c.customerId }) },
    { op: 'GET /storage/customers/{customerId}/attachments', as: 'admin', params: (c) => ({ customerId: c.customerId }) },
    { op: 'GET /storage/customers/{customerId}/attachments/{id}/download', as: 'admin', params: (c) => ({ customerId: c.customerId, id: c.attachmentId }) },

    // Personas, chat and memory.
    { op: 'GET /persona/service-templates', as: 'none' },
    { op: 'POST /persona/services', as: 'admin', then: (a, c) => Object.assign(c, { serviceId: a.id }) },
    { op: 'GET /persona/services', as: 'admin' },
    { op: 'GET /persona/services/{id}', as: 'admin', params: (c) => ({ id: c.serviceId }) },
    { op: 'PATCH /persona/services/{id}', as: 'admin', params: (c) => ({ id: c.serviceId }) },
    { op: 'POST /persona/services/{id}/connect', as: 'admin', params: (c) => ({ id: c.serviceId }) },
    { op: 'POST /persona/personas', as: 'admin', then: (a, c) => Object.assign(c, { personaId: a.id }) },
    { op: 'GET /persona/personas', as: 'admin' },
    { op: 'GET /persona/personas/{id}', as: 'admin', params: (c) => ({ id: c.personaId }) },
    { op: 'POST /registry/identifiers', as: 'user', body: (ex, c) => ({ ...ex, entityId: c.personaId }), then: (a, c) => Object.assign(c, { rdid: a.rdid }) },
    { op: 'GET /registry/identifiers', as: 'user', query: (c) => `entityId=${c.personaId}` },
    { op: 'GET /registry/resolve/{rdid}', as: 'none', params: (c) => ({ rdid: c.rdid }) },
    { op: 'GET /public/personas', as: 'none', headers: (c) => ({ 'x-ecosystem-id': c.eco }) },
    { op: 'GET /public/personas/{slug}', as: 'none', headers: (c) => ({ 'x-ecosystem-id': c.eco }), params: () => ({ slug: 'concierge' }) },
    { op: 'PATCH /persona/personas/{id}', as: 'admin', params: (c) => ({ id: c.personaId }) },
    { op: 'GET /public/users/{slug}', as: 'none', params: () => ({ slug: 'ada' }) },
    { op: 'GET /chat/conversations', as: 'customer' },
    { op: 'PATCH /chat/conversations/{id}', as: 'customer', params: (c) => ({ id: c.conversationId }) },
    { op: 'POST /chat/conversations/{id}/messages', as: 'customer', params: (c) => ({ id: c.conversationId }) },
    {
      op: 'GET /chat/conversations/{id}',
      as: 'customer',
      params: (c) => ({ id: c.conversationId }),
      then: (a, c) => Object.assign(c, { messageId: a.messages.find((m: { role: string }) => m.role === 'user').id }),
    },
    { op: 'PATCH /chat/conversations/{id}/messages/{messageId}', as: 'customer', params: (c) => ({ id: c.conversationId, messageId: c.messageId }) },
    {
      op: 'POST /persona_memory/memories',
      as: 'customer',
      body: (ex, c) => ({ ...ex, personaId: c.personaId }),
      then: (a, c) => Object.assign(c, { memoryId: a.id }),
    },
    { op: 'GET /persona_memory/memories', as: 'customer' },
    { op: 'GET /persona_memory/memories/{id}', as: 'customer', params: (c) => ({ id: c.memoryId }) },
    { op: 'PATCH /persona_memory/memories/{id}', as: 'customer', params: (c) => ({ id: c.memoryId }) },
    { op: 'POST /persona_memory/embed', as: 'admin' },
    { op: 'POST /persona_memory/recall', as: 'customer', body: (ex, c) => ({ ...ex, personaId: c.personaId }) },
    { op: 'POST /persona_memory/memories/{id}/archive', as: 'customer', params: (c) => ({ id: c.memoryId }) },
    { op: 'POST /persona_memory/memories/{id}/restore', as: 'customer', params: (c) => ({ id: c.memoryId }) },

    // Documents, notes, tables.
    { op: 'POST /data/documents', as: 'customer', then: (a, c) => Object.assign(c, { documentId: a.id }) },
    { op: 'GET /data/documents', as: 'customer' },
    { op: 'GET /data/documents/{id}', as: 'customer', params: (c) => ({ id: c.documentId }) },
    { op: 'PATCH /data/documents/{id}', as: 'customer', params: (c) => ({ id: c.documentId }) },
    {
      op: 'POST /data/document_blocks',
      as: 'customer',
      body: (ex, c) => ({ ...ex, documentId: c.documentId }),
      then: (a, c) => Object.assign(c, { blockId: a.id }),
    },
    { op: 'GET /data/document_blocks', as: 'customer', query: (c) => `documentId=eq.${c.documentId}` },
    { op: 'GET /data/document_blocks/{id}', as: 'customer', params: (c) => ({ id: c.blockId }) },
    { op: 'PATCH /data/document_blocks/{id}', as: 'customer', params: (c) => ({ id: c.blockId }) },
    { op: 'POST /userdata/notes', as: 'customer', body: (ex, c) => ({ ...ex, subjectId: c.documentId }), then: (a, c) => Object.assign(c, { noteId: a.id }) },
    { op: 'GET /userdata/notes', as: 'customer' },
    { op: 'GET /userdata/notes/{id}', as: 'customer', params: (c) => ({ id: c.noteId }) },
    { op: 'PATCH /userdata/notes/{id}', as: 'customer', params: (c) => ({ id: c.noteId }) },
    { op: 'POST /contract/contracts', as: 'admin' },
    { op: 'GET /contract/contracts', as: 'admin' },
    { op: 'GET /contract/contracts/{name}', as: 'admin', params: () => ({ name: 'orders' }) },
    { op: 'PATCH /contract/contracts/{name}', as: 'admin', params: () => ({ name: 'orders' }) },
    { op: 'POST /contract/contracts/{name}/rows', as: 'customer', params: () => ({ name: 'orders' }), then: (a, c) => Object.assign(c, { rowId: a.id }) },
    { op: 'GET /contract/contracts/{name}/rows', as: 'customer', params: () => ({ name: 'orders' }) },
    { op: 'GET /contract/contracts/{name}/rows/{id}', as: 'customer', params: (c) => ({ name: 'orders', id: c.rowId }) },
    { op: 'PATCH /contract/contracts/{name}/rows/{id}', as: 'customer', params: (c) => ({ name: 'orders', id: c.rowId }) },

    // Community.
    { op: 'POST /community/categories', as: 'admin', then: (a, c) => Object.assign(c, { categoryId: a.id }) },
    { op: 'GET /community/categories', as: 'customer' },
    { op: 'GET /community/categories/{id}', as: 'customer', params: (c) => ({ id: c.categoryId }) },
    { op: 'PATCH /community/categories/{id}', as: 'admin', params: (c) => ({ id: c.categoryId }) },
    { op: 'PUT /community/points/rules', as: 'admin' },
    { op: 'GET /community/points/rules', as: 'admin' },
    { op: 'PUT /community/levels', as: 'admin' },
    { op: 'GET /community/levels', as: 'customer' },
    { op: 'POST /community/badges', as: 'admin', then: (a, c) => Object.assign(c, { badgeId: a.id }) },
    { op: 'GET /community/badges', as: 'customer' },
    { op: 'PATCH /community/badges/{id}', as: 'admin', params: (c) => ({ id: c.badgeId }) },
    {
      op: 'POST /community/threads',
      as: 'customer',
      body: (ex, c) => ({ ...ex, categoryId: c.categoryId }),
      then: (a, c) => Object.assign(c, { threadId: a.id }),
    },
    { op: 'GET /community/threads', as: 'customer' },
    { op: 'GET /community/threads/{id}', as: 'customer', params: (c) => ({ id: c.threadId }) },
    { op: 'PATCH /community/threads/{id}', as: 'admin', params: (c) => ({ id: c.threadId }) },
    { op: 'POST /community/replies', as: 'customer', body: (ex, c) => ({ ...ex, threadId: c.threadId }), then: (a, c) => Object.assign(c, { replyId: a.id }) },
    { op: 'GET /community/replies', as: 'customer', query: (c) => `threadId=eq.${c.threadId}` },
    { op: 'GET /community/replies/{id}', as: 'customer', params: (c) => ({ id: c.replyId }) },
    { op: 'PATCH /community/replies/{id}', as: 'customer', params: (c) => ({ id: c.replyId }) },
    { op: 'POST /community/points', as: 'admin', body: (ex, c) => ({ ...ex, customerId: c.customerId }) },
    { op: 'GET /community/points', as: 'customer' },
    { op: 'GET /community/users/{customerId}', as: 'customer', params: (c) => ({ customerId: c.customerId }) },
    { op: 'GET /community/users/{customerId}/badges', as: 'customer', params: (c) => ({ customerId: c.customerId }) },
    { op: 'GET /community/leaderboard', as: 'customer' },

    // Search, once there is something to find.
    { op: 'PUT /search/settings', as: 'admin' },
    { op: 'GET /search/settings', as: 'admin' },
    { op: 'GET /search/chat/messages', as: 'customer', query: () => 'q=Lisbon' },
    { op: 'GET /search/threads', as: 'customer', query: () => 'q=cafés' },
    { op: 'GET /search/replies', as: 'customer', query: () => 'q=tram' },
    { op: 'GET /search/documents', as: 'customer', query: () => 'q=Lisbon' },
    { op: 'GET /search/notes', as: 'customer', query: () => 'q=weeks' },

    // Messaging and notifications.
    { op: 'PUT /site/services/{slug}', as: 'admin', params: () => ({ slug: 'email' }) },
    { op: 'GET /site/services', as: 'admin' },
    {
      op: 'GET /site/services/{slug}',
      as: 'admin',
      params: () => ({ slug: 'email' }),
      // The example's SMTP host is made up: from here on the instance's own SMTP server sends, and a Twilio account sends SMS.
      then: async (_, c) => {
        expect((await t.h.call('DELETE', '/site/services/email', asAdmin(c))).status).toBe(204)
        const sms = await t.h.call('PUT', '/site/services/sms', {
          ...asAdmin(c),
          body: { kind: 'twilio', enabled: true, config: { ...t.twilioAccount, from: '+15550100009' } },
        })
        expect(sms.status).toBe(200)
      },
    },
    { op: 'POST /messaging/templates', as: 'admin', then: (a, c) => Object.assign(c, { templateId: a.id }) },
    { op: 'GET /messaging/templates', as: 'admin' },
    { op: 'GET /messaging/templates/{id}', as: 'admin', params: (c) => ({ id: c.templateId }) },
    { op: 'PATCH /messaging/templates/{id}', as: 'admin', params: (c) => ({ id: c.templateId }) },
    { op: 'POST /messaging/templates/{id}/preview', as: 'admin', params: (c) => ({ id: c.templateId }) },
    { op: 'GET /messaging/status', as: 'admin' },
    { op: 'POST /messaging/email', as: 'admin', body: (ex, c) => ({ ...ex, customerId: c.customerId }) },
    {
      op: 'POST /messaging/sms',
      as: 'admin',
      body: (ex, c) => ({ ...ex, customerId: c.customerId }),
      then: (a, c) => Object.assign(c, { smsId: a.providerId }),
    },
    {
      op: 'POST /messaging/sms/status',
      as: 'none',
      form: true,
      body: (ex, c) => ({ ...ex, AccountSid: t.twilioAccount.accountSid, MessageSid: c.smsId }),
      headers: (_, form) => ({
        'x-twilio-signature': Twilio.getExpectedTwilioSignature(t.twilioAccount.authToken, `${t.h.deps.config.publicUrl}/messaging/sms/status`, form),
      }),
    },
    { op: 'GET /messaging/log', as: 'admin' },
    { op: 'GET /messaging/outbox', as: 'admin' },
    { op: 'GET /messaging/outbox/instance', as: 'user' },
    { op: 'PUT /notifications/preferences/{category}', as: 'customer', params: () => ({ category: 'account' }) },
    { op: 'GET /notifications/preferences', as: 'customer' },
    { op: 'POST /notifications/announcements', as: 'admin' },
    {
      op: 'GET /notifications',
      as: 'customer',
      // The announcement reaches customers through a queue job.
      before: (c) => until(async () => (await t.h.call('GET', '/notifications', { token: c.customer })).body.items.length > 0),
      then: (a, c) => Object.assign(c, { notificationId: a.items[0].id }),
    },
    { op: 'GET /notifications/unread-count', as: 'customer' },
    { op: 'POST /notifications/read/{id}', as: 'customer', params: (c) => ({ id: c.notificationId }) },
    { op: 'POST /notifications/read-all', as: 'customer' },
    // The link an e-mail's List-Unsubscribe header carries.
    {
      op: 'POST /notifications/unsubscribe',
      as: 'none',
      query: (c) => new URL(t.h.app.services.notifications.unsubscribeUrl(c.customerId, 'account')).search.slice(1),
    },
    { op: 'GET /site/feed', as: 'customer', then: (a, c) => Object.assign(c, { feedId: a.items[0].id }) },
    { op: 'GET /site/feed/unread-count', as: 'customer' },
    { op: 'POST /site/feed/{id}/read', as: 'customer', params: (c) => ({ id: c.feedId }) },
    { op: 'POST /site/feed/read-all', as: 'customer' },

    // Integrations and monitoring.
    { op: 'GET /integrations/events', as: 'admin' },
    { op: 'POST /integrations/webhooks', as: 'admin', then: (a, c) => Object.assign(c, { webhookId: a.id }) },
    { op: 'GET /integrations/webhooks', as: 'admin' },
    { op: 'GET /integrations/webhooks/{id}', as: 'admin', params: (c) => ({ id: c.webhookId }) },
    { op: 'POST /integrations/webhooks/{id}/test', as: 'admin', params: (c) => ({ id: c.webhookId }) },
    {
      op: 'GET /integrations/webhooks/{id}/deliveries',
      as: 'admin',
      params: (c) => ({ id: c.webhookId }),
      then: (a, c) => Object.assign(c, { deliveryId: a.items[0]?.id }),
    },
    { op: 'GET /integrations/webhooks/{id}/deliveries/{deliveryId}', as: 'admin', params: (c) => ({ id: c.webhookId, deliveryId: c.deliveryId }) },
    { op: 'POST /integrations/webhooks/{id}/deliveries/{deliveryId}/retry', as: 'admin', params: (c) => ({ id: c.webhookId, deliveryId: c.deliveryId }) },
    { op: 'POST /integrations/webhooks/{id}/rotate-secret', as: 'admin', params: (c) => ({ id: c.webhookId }) },
    { op: 'PATCH /integrations/webhooks/{id}', as: 'admin', params: (c) => ({ id: c.webhookId }) },
    { op: 'POST /monitored_sites/sites', as: 'admin', then: (a, c) => Object.assign(c, { siteId: a.id }) },
    { op: 'GET /monitored_sites/sites', as: 'admin' },
    { op: 'GET /monitored_sites/sites/{id}', as: 'admin', params: (c) => ({ id: c.siteId }) },
    { op: 'PATCH /monitored_sites/sites/{id}', as: 'admin', params: (c) => ({ id: c.siteId }) },
    { op: 'POST /monitored_sites/sites/{id}/check', as: 'admin', params: (c) => ({ id: c.siteId }) },
    { op: 'GET /monitored_sites/sites/{id}/checks', as: 'admin', params: (c) => ({ id: c.siteId }) },
    { op: 'GET /usage/overview', as: 'admin' },

    // Billing.
    { op: 'PUT /billing/settings', as: 'admin' },
    { op: 'GET /billing/settings', as: 'admin' },
    { op: 'POST /billing/features', as: 'admin' },
    { op: 'GET /billing/features', as: 'admin' },
    { op: 'GET /billing/features/{key}', as: 'admin', params: () => ({ key: 'api.calls' }) },
    { op: 'PATCH /billing/features/{key}', as: 'admin', params: () => ({ key: 'api.calls' }) },
    { op: 'POST /billing/plans', as: 'admin' },
    { op: 'GET /billing/plans', as: 'admin' },
    { op: 'GET /billing/plans/{key}', as: 'admin', params: () => ({ key: 'pro' }) },
    { op: 'PATCH /billing/plans/{key}', as: 'admin', params: () => ({ key: 'pro' }) },
    { op: 'GET /billing/catalogue', as: 'none', query: (c) => `ecosystem=${c.eco}` },
    { op: 'POST /billing/usage', as: 'admin', body: (ex, c) => ({ events: ex.events.map((e: object) => ({ ...e, customerId: c.customerId })) }) },
    { op: 'POST /billing/check', as: 'customer' },
    { op: 'POST /billing/checkout', as: 'customer', then: (a, c) => Object.assign(c, { checkoutSession: a.url.split('/').at(-1) }) },
    {
      op: 'POST /billing/stripe/webhook/{ecosystemId}',
      as: 'none',
      params: (c) => ({ ecosystemId: c.eco }),
      // Stripe reports the finished Checkout, signed with the webhook secret the settings example set.
      before: async (c) => {
        t.stripe.completeCheckout(c.checkoutSession)
        c.stripeEvent = await t.stripe.event(t.stripeKeys.stripeWebhookSecret, 'checkout.session.completed', {
          id: c.checkoutSession,
          object: 'checkout.session',
        })
      },
      body: (_, c) => c.stripeEvent.payload,
      headers: (c) => ({ 'content-type': 'application/json', 'stripe-signature': c.stripeEvent.header }),
    },
    { op: 'POST /billing/portal', as: 'customer' },
    { op: 'GET /billing/me', as: 'customer' },
    { op: 'GET /billing/me/invoices', as: 'customer' },
    { op: 'PUT /billing/customers/{customerId}/plan', as: 'admin', params: (c) => ({ customerId: c.customerId }) },
    { op: 'GET /billing/customers/{customerId}', as: 'admin', params: (c) => ({ customerId: c.customerId }) },
    { op: 'GET /billing/customers/{customerId}/invoices', as: 'admin', params: (c) => ({ customerId: c.customerId }) },
    { op: 'DELETE /billing/customers/{customerId}/plan', as: 'admin', params: (c) => ({ customerId: c.customerId }) },
    { op: 'POST /realtime/tickets', as: 'customer' },

    // Backups.
    { op: 'POST /system/backups', as: 'user', when: () => t.h.deps.database.kind === 'pglite' },
    { op: 'GET /system/backups', as: 'user' },
    { op: 'GET /system/backups/settings', as: 'user' },

    // The instance's accounts, as platform admins see them (Ada, the first account, is one).
    { op: 'GET /auth/admin/users', as: 'user' },

    // Second factors, and the account's password: last, since they change how Ada signs in.
    { op: 'POST /auth/mfa/totp', as: 'user', then: (a, c) => Object.assign(c, { factorId: a.factorId, secret: a.secret }) },
    { op: 'POST /auth/mfa/totp/{id}/confirm', as: 'user', params: (c) => ({ id: c.factorId }), body: (ex, c) => ({ ...ex, code: totp(c.secret) }) },
    { op: 'POST /auth/mfa/verify', as: 'user', body: (ex, c) => ({ ...ex, code: totp(c.secret, 1) }), then: (a, c) => Object.assign(c, { token: a.token }) },
    { op: 'POST /auth/mfa/recovery-codes', as: 'user' },
    { op: 'POST /auth/passkeys/register/options', as: 'user', then: (a, c) => Object.assign(c, { passkeyOptions: a }) },
    {
      op: 'POST /auth/passkeys/register/verify',
      as: 'user',
      body: async (ex, c) => ({
        ...ex,
        response: (c.authenticator = await softwareAuthenticator({ origin: t.h.deps.config.publicUrl })).create(c.passkeyOptions),
      }),
    },
    { op: 'GET /auth/passkeys', as: 'user' },
    { op: 'POST /auth/mfa/verify/options', as: 'user' },
    { op: 'POST /auth/passkeys/login/options', as: 'none', then: (a, c) => Object.assign(c, { passkeyOptions: a }) },
    {
      op: 'POST /auth/passkeys/login/verify',
      as: 'none',
      body: async (ex, c) => ({ ...ex, response: await c.authenticator.get(c.passkeyOptions) }),
      then: (a, c) => Object.assign(c, { token: a.token }),
    },
    {
      op: 'PATCH /registry/organizations/{id}/policy',
      as: 'user',
      params: (c) => ({ id: c.orgId }),
      then: async (_, c) =>
        expect((await t.h.call('PATCH', `/registry/organizations/${c.orgId}/policy`, { token: c.token, body: { requireMfa: false } })).status).toBe(200),
    },
    { op: 'POST /auth/change-password', as: 'user' },
    { op: 'POST /auth/password-reset/request', as: 'none' },
    { op: 'POST /auth/password-reset/confirm', as: 'none', body: async (ex) => ({ ...ex, token: await mailTo('ada@example.com', /(?:\?|&)token=(\S+)/) }) },
  ]
}
