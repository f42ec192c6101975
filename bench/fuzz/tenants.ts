/** Setup: two tenants and the ways of calling as one of them; their own ids, and putting their credentials back. */
import { type IdOf, nextUnique } from './schema'
import type { Actor, FuzzSession } from './session'

export type Tenant = {
  /** 'a' is the tenant the operations are sent as, 'b' the other one. */
  label: 'a' | 'b'
  owner: { token: string; email: string; password: string }
  ecosystemId: string
  rdid?: string
  organizationId: string
  customer: { customerId: string; token: string }
  apiToken?: string
  slug?: string
  /** Ids (and slugs, names) of the tenant's resources by the path that lists them. */
  found: Map<string, Record<string, unknown>>
}

/** An account in no organization, registered in setup. */
export const MEMBER_EMAIL = 'fuzz-member@example.test'

/** Property names that take an id of a resource listed at a path. */
const ID_FIELDS: Record<string, string> = {
  documentId: '/data/documents',
  personaId: '/persona/personas',
  serviceId: '/persona/services',
  categoryId: '/community/categories',
  threadId: '/community/threads',
  replyId: '/community/replies',
  conversationId: '/chat/conversations',
  webhookId: '/integrations/webhooks',
  siteId: '/monitored_sites/sites',
  attachmentId: '/storage/attachments',
  organizationId: '/registry/organizations',
  ecosystemId: '/registry/ecosystems',
  memoryId: '/persona_memory/memories',
  clientId: '/oauth/clients',
}

/** The calls as tenant `t`; `other` is the tenant whose X-Ecosystem-Id one of them sends. */
export const actorsOf = (t: Tenant, other: Tenant) => ({
  none: { name: 'none' } as Actor,
  owner: { name: 'owner (no X-Ecosystem-Id)', token: t.owner.token } as Actor,
  admin: { name: 'owner + X-Ecosystem-Id', token: t.owner.token, headers: { 'x-ecosystem-id': t.ecosystemId } } as Actor,
  otherEco: { name: "owner + other tenant's X-Ecosystem-Id", token: t.owner.token, headers: { 'x-ecosystem-id': other.ecosystemId } } as Actor,
  api: { name: 'API token + X-Ecosystem-Id', token: t.apiToken, headers: { 'x-ecosystem-id': t.ecosystemId } } as Actor,
  customer: { name: 'customer', token: t.customer.token } as Actor,
})
export type Actors = ReturnType<typeof actorsOf>

/** An owner, an organization, a customer, an API token. */
async function tenant(session: FuzzSession, label: Tenant['label']): Promise<Tenant> {
  const email = `fuzz-${label}@example.test`
  const password = `fuzz-${label}-owner-password`
  const account = await session.ok('POST', '/auth/register', { name: 'anon' }, { email, password, name: `Fuzz ${label}` })
  const org = await session.ok('POST', '/registry/organizations', { name: 'owner', token: account.token }, { slug: `fuzz-${label}`, name: `Fuzz ${label}` })
  const asOwner = { name: 'owner', token: account.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
  const { customerId } = await session.ok('POST', '/customer/resolve', asOwner, { externalId: `fuzz-${label}-customer` })
  const { token } = await session.ok('POST', '/customer/token', asOwner, { customerId })
  const api = await session.ok('POST', '/auth/tokens', { name: 'owner', token: account.token }, { name: 'fuzz' })
  return {
    label,
    owner: { token: account.token, email, password },
    ecosystemId: org.ecosystem.id,
    rdid: org.ecosystem.rdid,
    organizationId: org.organization.id,
    customer: { customerId, token },
    apiToken: api.token,
    found: new Map(),
  }
}

/** The two tenants, and the calls as tenant a (`actors`), renewed whenever a credential is put back. */
export class Tenants {
  actors: Actors
  private healFailed = 0

  private constructor(
    private readonly session: FuzzSession,
    readonly a: Tenant,
    readonly b: Tenant,
  ) {
    this.actors = actorsOf(a, b)
  }

  /** Setup: two tenants, each an owner, an organization, a customer, an API token; and an account in no organization. */
  static async create(session: FuzzSession): Promise<Tenants> {
    const a = await tenant(session, 'a')
    const b = await tenant(session, 'b')
    await session.ok('POST', '/auth/register', { name: 'anon' }, { email: MEMBER_EMAIL, password: 'fuzz-member-password', name: 'Fuzz member' })
    return new Tenants(session, a, b)
  }

  /** Puts a signed-out owner, a revoked API token or customer token back (some operations end them). */
  async heal(t: Tenant) {
    const { session } = this
    const before = session.phase
    session.phase = 'setup'
    try {
      if ((await session.send('GET', '/auth/me', { name: 'owner', token: t.owner.token })).status !== 200) {
        t.owner.token = (await session.ok('POST', '/auth/login', { name: 'anon' }, { email: t.owner.email, password: t.owner.password })).token
      }
      if ((await session.send('GET', '/auth/me', { name: 'api', token: t.apiToken })).status !== 200) {
        t.apiToken = (await session.ok('POST', '/auth/tokens', { name: 'owner', token: t.owner.token }, { name: `fuzz-${nextUnique()}` })).token
      }
      if ((await session.send('GET', '/customer/me', { name: 'customer', token: t.customer.token })).status !== 200) {
        const asOwner = { name: 'owner', token: t.owner.token, headers: { 'x-ecosystem-id': t.ecosystemId } }
        t.customer.token = (await session.ok('POST', '/customer/token', asOwner, { customerId: t.customer.customerId })).token
      }
    } catch (err) {
      // Expected once the last DELETEs removed the customer or the ecosystem.
      if (!this.healFailed++)
        session.log(
          `  ${session.backend}: could not restore a credential (expected after DELETE of its own customer or ecosystem): ${(err as Error).message.slice(0, 160)}`,
        )
    } finally {
      session.phase = before
    }
    this.actors = actorsOf(this.a, this.b)
  }
}

/** The tenant's own ids for body fields. */
export const idsOf =
  (t: Tenant): IdOf =>
  (field) => {
    if (field === 'customerId' || field === 'userId') return t.customer.customerId
    if (field === 'organizationId') return t.organizationId
    if (field === 'ecosystemId' || field === 'entityId') return t.ecosystemId
    const path = ID_FIELDS[field]
    return path ? (t.found.get(path)?.id as string | undefined) : undefined
  }

/** The template with the tenant's own values for its parameters, or undefined when one is unknown. */
export function fillOwn(template: string, t: Tenant, last?: string): string | undefined {
  let unknown = false
  const lastAt = template.lastIndexOf('{')
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string, offset: number) => {
    if (last !== undefined && offset === lastAt) return last
    const collection = template.slice(0, offset - 1)
    const v = ownValue(name, collection, t)
    if (v === undefined) unknown = true
    return encodeURIComponent(v ?? '')
  })
  return unknown ? undefined : path
}

function ownValue(name: string, collection: string, t: Tenant): string | undefined {
  if (name === 'userId' || name === 'customerId') return t.customer.customerId
  if (name === 'rdid') return t.rdid ?? t.ecosystemId
  if (collection === '/contract/contracts' && name === 'name') return t.label === 'a' ? 'fuzzops' : 'fuzz_b_extra'
  if (collection === '/auth/slug-available') return 'some-free-slug'
  if (collection === '/public/users') return t.slug
  const row = t.found.get(collection) ?? (collection === '/public/personas' ? t.found.get('/persona/personas') : undefined)
  const value = row?.[name === 'id' || name.endsWith('Id') ? 'id' : name]
  return typeof value === 'string' ? value : undefined
}
