import type { Harness, RegisteredUser } from './harness'

let counter = 0

/** Provisions an organization (with its first ecosystem) owned by `owner`. */
export async function provision(h: Harness, owner: RegisteredUser, slug = `org${++counter}-${crypto.randomUUID().slice(0, 6)}`) {
  const res = await h.call('POST', '/registry/organizations', { token: owner.token, body: { slug, name: `Org ${slug}` } })
  if (res.status !== 201) throw new Error(`provision failed: ${res.status} ${JSON.stringify(res.body)}`)
  const { organization, namespace, ecosystem, teamId } = res.body
  return {
    organization,
    namespace,
    ecosystem,
    teamId,
    slug,
    /** Headers that put an account credential inside this ecosystem. */
    as: (user: RegisteredUser) => ({ token: user.token, headers: { 'x-ecosystem-id': ecosystem.id } }),
  }
}

export type Provisioned = Awaited<ReturnType<typeof provision>>

/** Adds `user` to the organization's team with `role`. */
export async function addMember(h: Harness, org: Provisioned, by: RegisteredUser, user: RegisteredUser, role: 'owner' | 'admin' | 'member') {
  const res = await h.call('POST', '/team/members', {
    token: by.token,
    body: { organizationId: org.organization.id, email: user.email, role },
  })
  if (res.status !== 201) throw new Error(`add member failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { id: string; role: string }
}

/** A customer of the ecosystem with a customer token, issued by an admin. */
export async function customerOf(h: Harness, org: Provisioned, admin: RegisteredUser, externalId = `ext-${crypto.randomUUID()}`) {
  const resolved = await h.call('POST', '/customer/resolve', { ...org.as(admin), body: { externalId } })
  const tokens = await h.call('POST', '/customer/token', { ...org.as(admin), body: { customerId: resolved.body.customerId } })
  if (tokens.status !== 200) throw new Error(`customer token failed: ${tokens.status} ${JSON.stringify(tokens.body)}`)
  return tokens.body as { token: string; refreshToken: string; customerId: string }
}
