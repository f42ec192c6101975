import type { CallOptions, Harness, RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

export interface ContractWorld {
  owner: RegisteredUser
  org: Provisioned
  admin: Pick<CallOptions, 'token' | 'headers'>
  alice: { token: string; customerId: string }
  bob: { token: string; customerId: string }
}

/** An ecosystem with its owner (acting as admin) and two customers. */
export async function contractWorld(h: Harness): Promise<ContractWorld> {
  const owner = await h.register()
  const org = await provision(h, owner)
  return { owner, org, admin: org.as(owner), alice: await customerOf(h, org, owner), bob: await customerOf(h, org, owner) }
}

let counter = 0
/** Defines a contract (throws unless 201); the name is made unique unless given. */
export async function define(h: Harness, w: ContractWorld, body: Record<string, unknown>) {
  const res = await h.call('POST', '/contract/contracts', { ...w.admin, body: { name: `c${++counter}_${crypto.randomUUID().slice(0, 4)}`, ...body } })
  if (res.status !== 201) throw new Error(`define: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { name: string; version: number }
}
