import type { Harness, RegisteredUser } from '../support/harness'
import type { Provisioned } from '../support/tenancy'

/** A customer with the given contact details; returns its id. */
export async function contactCustomer(h: Harness, org: Provisioned, admin: RegisteredUser, profile: { email?: string; phone?: string; name?: string }) {
  const res = await h.call('POST', '/customer/resolve', { ...org.as(admin), body: { externalId: `ext-${crypto.randomUUID()}`, ...profile } })
  if (res.status !== 200 && res.status !== 201) throw new Error(`resolve failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body.customerId as string
}
