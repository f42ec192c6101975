import type { Provisioned } from '../support/tenancy'

/** What a route needs from ecosystem B to name its resources. */
export interface VictimFixture {
  org: Provisioned
  customerId: string
  memberId: string
  /** A ready attachment of B's customer. */
  attachmentId: string
  /** A persona of B with a `user` memory of B's customer and a global memory, both mentioning `b-secret-memory`. */
  personaId: string
  memoryId: string
  globalMemoryId: string
  /** A persona service of B, with an API key. */
  serviceId: string
  /** A conversation of B's customer (with B's persona) and its first user message. */
  conversationId: string
  messageId: string
  /** A message template of B, and an unread notification of B's customer. */
  templateId: string
  notificationId: string
  /** A community thread of B's customer, with a reply, and a badge definition of B. */
  threadId: string
  replyId: string
  badgeId: string
  /** A site feed item of B's customer (the badge it earned). */
  feedItemId: string
  webhookId: string
  siteId: string
  deliveryId: string
}

export interface ScopedRoute {
  method: string
  path: string
  body?: unknown
}

/**
 * Every ecosystem-scoped route, addressed at ecosystem B's resources. The cross-tenant suite
 * calls each with credentials of ecosystem A and expects 403/404 and none of B's data.
 * Areas add their routes here.
 */
export const ecosystemScopedRoutes: ((b: VictimFixture) => ScopedRoute)[] = [
  () => ({ method: 'POST', path: '/customer/resolve', body: { externalId: 'probe' } }),
  () => ({ method: 'POST', path: '/customer/register', body: { externalId: 'probe-2' } }),
  (b) => ({ method: 'POST', path: '/customer/token', body: { customerId: b.customerId } }),
  (b) => ({ method: 'POST', path: '/customer/support-sessions', body: { customerId: b.customerId } }),
  () => ({ method: 'GET', path: '/customer/customers' }),
  (b) => ({ method: 'GET', path: `/customer/customers/${b.customerId}` }),
  (b) => ({ method: 'PATCH', path: `/customer/customers/${b.customerId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/customer/customers/${b.customerId}` }),
  () => ({ method: 'POST', path: '/storage/uploads', body: { filename: 'probe.txt', contentType: 'text/plain', sizeBytes: 1, contentHash: 'a'.repeat(64) } }),
  () => ({ method: 'GET', path: '/storage/attachments' }),
  (b) => ({ method: 'GET', path: `/storage/attachments/${b.attachmentId}` }),
  (b) => ({ method: 'PATCH', path: `/storage/attachments/${b.attachmentId}`, body: { filename: 'pwned' } }),
  (b) => ({ method: 'POST', path: `/storage/attachments/${b.attachmentId}/complete` }),
  (b) => ({ method: 'GET', path: `/storage/attachments/${b.attachmentId}/download` }),
  (b) => ({ method: 'DELETE', path: `/storage/attachments/${b.attachmentId}` }),
  () => ({ method: 'GET', path: '/usage/storage' }),
  () => ({ method: 'GET', path: '/site/services' }),
  () => ({ method: 'PUT', path: '/site/services/probe', body: { kind: 'webhook', enabled: true, config: { url: 'https://probe.example.test' } } }),
  () => ({ method: 'DELETE', path: '/site/services/probe' }),
  () => ({ method: 'GET', path: '/usage/storage/quotas' }),
  (b) => ({ method: 'GET', path: `/usage/storage/customers/${b.customerId}` }),
  (b) => ({ method: 'PUT', path: `/usage/storage/quotas/${b.customerId}`, body: { quotaBytes: 1 } }),
  (b) => ({ method: 'DELETE', path: `/usage/storage/quotas/${b.customerId}` }),
  (b) => ({ method: 'GET', path: `/persona_memory/memories?personaId=${b.personaId}` }),
  (b) => ({
    method: 'POST',
    path: '/persona_memory/memories',
    body: { personaId: b.personaId, scope: 'persona', slug: 'probe', memoryType: 'user', description: 'probe', body: 'probe', supersedesId: b.globalMemoryId },
  }),
  (b) => ({ method: 'GET', path: `/persona_memory/memories/${b.memoryId}` }),
  (b) => ({ method: 'GET', path: `/persona_memory/memories/${b.globalMemoryId}` }),
  (b) => ({ method: 'PATCH', path: `/persona_memory/memories/${b.memoryId}`, body: { body: 'pwned' } }),
  (b) => ({ method: 'PATCH', path: `/persona_memory/memories/${b.globalMemoryId}`, body: { body: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/persona_memory/memories/${b.memoryId}` }),
  (b) => ({ method: 'DELETE', path: `/persona_memory/memories/${b.globalMemoryId}` }),
  (b) => ({ method: 'POST', path: `/persona_memory/memories/${b.memoryId}/archive` }),
  (b) => ({ method: 'POST', path: `/persona_memory/memories/${b.globalMemoryId}/archive` }),
  (b) => ({ method: 'POST', path: `/persona_memory/memories/${b.globalMemoryId}/restore` }),
  (b) => ({ method: 'POST', path: '/persona_memory/recall', body: { personaId: b.personaId, query: 'b-secret-memory', limit: 50 } }),
  () => ({ method: 'POST', path: '/persona_memory/embed', body: {} }),
  () => ({ method: 'GET', path: '/persona/services' }),
  () => ({ method: 'POST', path: '/persona/services', body: { templateId: 'ollama' } }),
  (b) => ({ method: 'GET', path: `/persona/services/${b.serviceId}` }),
  (b) => ({ method: 'PATCH', path: `/persona/services/${b.serviceId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/persona/services/${b.serviceId}` }),
  (b) => ({ method: 'POST', path: `/persona/services/${b.serviceId}/connect` }),
  () => ({ method: 'GET', path: '/persona/personas' }),
  (b) => ({ method: 'POST', path: '/persona/personas', body: { slug: 'probe', name: 'probe', serviceId: b.serviceId } }),
  (b) => ({ method: 'GET', path: `/persona/personas/${b.personaId}` }),
  (b) => ({ method: 'PATCH', path: `/persona/personas/${b.personaId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/persona/personas/${b.personaId}` }),
  () => ({ method: 'GET', path: '/chat/conversations' }),
  () => ({ method: 'POST', path: '/chat/conversations', body: { personaSlug: 'b-secret-persona' } }),
  (b) => ({ method: 'GET', path: `/chat/conversations/${b.conversationId}` }),
  (b) => ({ method: 'PATCH', path: `/chat/conversations/${b.conversationId}`, body: { title: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/chat/conversations/${b.conversationId}` }),
  (b) => ({ method: 'POST', path: `/chat/conversations/${b.conversationId}/messages`, body: { message: 'pwned' } }),
  (b) => ({ method: 'POST', path: `/chat/conversations/${b.conversationId}/regenerate` }),
  () => ({ method: 'GET', path: '/search/chat/messages?q=b-secret-message' }),
  (b) => ({ method: 'PATCH', path: `/chat/conversations/${b.conversationId}/messages/${b.messageId}`, body: { content: 'pwned' } }),
  () => ({ method: 'GET', path: '/messaging/templates' }),
  () => ({ method: 'POST', path: '/messaging/templates', body: { name: 'probe', subject: 's', htmlBody: 'h', textBody: 't', category: 'account' } }),
  (b) => ({ method: 'GET', path: `/messaging/templates/${b.templateId}` }),
  (b) => ({ method: 'PATCH', path: `/messaging/templates/${b.templateId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/messaging/templates/${b.templateId}` }),
  (b) => ({ method: 'POST', path: `/messaging/templates/${b.templateId}/preview`, body: { variables: {} } }),
  () => ({ method: 'GET', path: '/messaging/status' }),
  (b) => ({ method: 'POST', path: '/messaging/email', body: { customerId: b.customerId, subject: 'pwned', text: 'pwned' } }),
  (b) => ({ method: 'POST', path: '/messaging/sms', body: { customerId: b.customerId, body: 'pwned' } }),
  (b) => ({ method: 'GET', path: `/messaging/log?customerId=${b.customerId}` }),
  () => ({ method: 'GET', path: '/messaging/outbox' }),
  () => ({ method: 'GET', path: '/notifications' }),
  (b) => ({ method: 'POST', path: `/notifications/read/${b.notificationId}` }),
  () => ({ method: 'POST', path: '/notifications/read-all' }),
  () => ({ method: 'GET', path: '/notifications/preferences' }),
  () => ({ method: 'PUT', path: '/notifications/preferences/account', body: { email: false, sms: false } }),
  () => ({ method: 'POST', path: '/notifications/announcements', body: { subject: 'probe', body: 'probe' } }),
  () => ({ method: 'GET', path: '/community/threads' }),
  (b) => ({ method: 'GET', path: `/community/threads/${b.threadId}` }),
  (b) => ({ method: 'PATCH', path: `/community/threads/${b.threadId}`, body: { title: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/community/threads/${b.threadId}` }),
  (b) => ({ method: 'POST', path: '/community/replies', body: { threadId: b.threadId, body: 'pwned' } }),
  (b) => ({ method: 'GET', path: `/community/replies?threadId=eq.${b.threadId}` }),
  (b) => ({ method: 'GET', path: `/community/replies/${b.replyId}` }),
  (b) => ({ method: 'PATCH', path: `/community/replies/${b.replyId}`, body: { body: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/community/replies/${b.replyId}` }),
  () => ({ method: 'GET', path: '/community/categories' }),
  () => ({ method: 'POST', path: '/community/categories', body: { name: 'probe', slug: 'probe' } }),
  (b) => ({
    method: 'POST',
    path: '/community/points',
    body: { customerId: b.customerId, amount: 1000, reason: 'pwned', sourceType: 'probe', sourceId: 'probe' },
  }),
  (b) => ({ method: 'GET', path: `/community/points?customerId=${b.customerId}` }),
  () => ({ method: 'GET', path: '/community/points/rules' }),
  () => ({ method: 'PUT', path: '/community/points/rules', body: { threadCreated: 1000, replyCreated: 0, replyReceived: 0 } }),
  () => ({ method: 'GET', path: '/community/badges' }),
  (b) => ({ method: 'PATCH', path: `/community/badges/${b.badgeId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/community/badges/${b.badgeId}` }),
  (b) => ({ method: 'GET', path: `/community/users/${b.customerId}` }),
  (b) => ({ method: 'GET', path: `/community/users/${b.customerId}/badges` }),
  () => ({ method: 'GET', path: '/community/leaderboard' }),
  () => ({ method: 'GET', path: '/community/levels' }),
  () => ({ method: 'PUT', path: '/community/levels', body: { levels: [{ name: 'pwned', minPoints: 0 }] } }),
  () => ({ method: 'GET', path: '/site/feed' }),
  () => ({ method: 'GET', path: '/site/feed/unread-count' }),
  (b) => ({ method: 'POST', path: `/site/feed/${b.feedItemId}/read` }),
  () => ({ method: 'POST', path: '/site/feed/read-all' }),
  () => ({ method: 'GET', path: '/search/threads?q=b-secret-thread' }),
  () => ({ method: 'GET', path: '/search/replies?q=b-secret-reply' }),
  () => ({ method: 'GET', path: '/search/documents?q=b-secret' }),
  () => ({ method: 'GET', path: '/search/notes?q=b-secret' }),
  () => ({ method: 'GET', path: '/search/settings' }),
  () => ({ method: 'PUT', path: '/search/settings', body: { language: 'simple' } }),
  () => ({ method: 'GET', path: '/integrations/events' }),
  () => ({ method: 'GET', path: '/integrations/webhooks' }),
  () => ({ method: 'POST', path: '/integrations/webhooks', body: { url: 'https://pwned.example/in', events: ['customer.created'] } }),
  (b) => ({ method: 'GET', path: `/integrations/webhooks/${b.webhookId}` }),
  (b) => ({ method: 'PATCH', path: `/integrations/webhooks/${b.webhookId}`, body: { url: 'https://pwned.example/in' } }),
  (b) => ({ method: 'DELETE', path: `/integrations/webhooks/${b.webhookId}` }),
  (b) => ({ method: 'POST', path: `/integrations/webhooks/${b.webhookId}/rotate-secret` }),
  (b) => ({ method: 'POST', path: `/integrations/webhooks/${b.webhookId}/test` }),
  (b) => ({ method: 'GET', path: `/integrations/webhooks/${b.webhookId}/deliveries` }),
  (b) => ({ method: 'POST', path: `/integrations/webhooks/${b.webhookId}/deliveries/${b.deliveryId}/retry` }),
  (b) => ({ method: 'GET', path: `/integrations/webhooks/${b.webhookId}/deliveries/${b.deliveryId}` }),
  () => ({ method: 'GET', path: '/monitored_sites/sites' }),
  () => ({ method: 'POST', path: '/monitored_sites/sites', body: { name: 'probe', url: 'https://pwned.example/', intervalMinutes: 5 } }),
  (b) => ({ method: 'GET', path: `/monitored_sites/sites/${b.siteId}` }),
  (b) => ({ method: 'PATCH', path: `/monitored_sites/sites/${b.siteId}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/monitored_sites/sites/${b.siteId}` }),
  (b) => ({ method: 'GET', path: `/monitored_sites/sites/${b.siteId}/checks` }),
  (b) => ({ method: 'POST', path: `/monitored_sites/sites/${b.siteId}/check` }),
  (b) => ({ method: 'GET', path: `/audit/events?pageSize=100&targetId=${b.webhookId}` }),
  () => ({ method: 'GET', path: '/audit/events?pageSize=100' }),
]

/** Organization-scoped account routes, addressed at B's organization (account credentials only). */
export const organizationScopedRoutes: ((b: VictimFixture) => ScopedRoute)[] = [
  (b) => ({ method: 'GET', path: `/registry/organizations/${b.org.organization.id}` }),
  (b) => ({ method: 'GET', path: `/registry/ecosystems/${b.org.ecosystem.id}` }),
  (b) => ({ method: 'PATCH', path: `/registry/ecosystems/${b.org.ecosystem.id}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'DELETE', path: `/registry/ecosystems/${b.org.ecosystem.id}` }),
  (b) => ({ method: 'POST', path: '/registry/ecosystems', body: { organizationId: b.org.organization.id, slug: 'pwned' } }),
  (b) => ({ method: 'PATCH', path: `/registry/namespaces/${b.org.namespace.id}`, body: { name: 'pwned' } }),
  (b) => ({ method: 'POST', path: '/registry/identifiers', body: { rdid: `${b.org.namespace.rdid}.pwned`, entityType: 'persona', entityId: b.personaId } }),
  (b) => ({ method: 'GET', path: `/team/members?organizationId=${b.org.organization.id}` }),
  (b) => ({ method: 'POST', path: '/team/members', body: { organizationId: b.org.organization.id, email: 'x@example.test', role: 'admin' } }),
  (b) => ({ method: 'PATCH', path: `/team/members/${b.memberId}`, body: { role: 'member' } }),
  (b) => ({ method: 'DELETE', path: `/team/members/${b.memberId}` }),
]

/** A route's method and path with placeholders, for test names. */
export function describeRoute(route: (b: VictimFixture) => ScopedRoute): string {
  const placeholder = {
    org: { organization: { id: ':organizationId' }, ecosystem: { id: ':ecosystemId' }, namespace: { id: ':namespaceId', rdid: 'org.b' } },
    customerId: ':customerId',
    memberId: ':memberId',
    attachmentId: ':attachmentId',
    personaId: ':personaId',
    memoryId: ':memoryId',
    globalMemoryId: ':globalMemoryId',
    serviceId: ':serviceId',
    conversationId: ':conversationId',
    messageId: ':messageId',
    templateId: ':templateId',
    notificationId: ':notificationId',
    threadId: ':threadId',
    replyId: ':replyId',
    badgeId: ':badgeId',
    feedItemId: ':feedItemId',
    webhookId: ':webhookId',
    siteId: ':siteId',
    deliveryId: ':deliveryId',
  } as unknown as VictimFixture
  const { method, path } = route(placeholder)
  return `${method} ${path}`
}
