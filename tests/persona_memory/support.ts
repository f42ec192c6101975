import { afterAll, beforeAll } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { createPersona } from '../support/personas'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let counter = 0

/** A valid create body; `overrides` win. */
export function memoryInput(personaId: string, overrides: Record<string, unknown> = {}) {
  const n = ++counter
  return {
    personaId,
    scope: 'user',
    slug: `memory-${n}`,
    memoryType: 'user',
    description: `Memory number ${n}`,
    body: `Something worth remembering, number ${n}.`,
    ...overrides,
  }
}

/** An ecosystem with its owner, a plain team member, two customers with customer tokens, and a persona (its id). */
export async function ecosystemWithPeople(h: Harness) {
  const owner = await h.register()
  const member = await h.register()
  const org = await provision(h, owner)
  await addMember(h, org, owner, member, 'member')
  const alice = await customerOf(h, org, owner)
  const bob = await customerOf(h, org, owner)
  const persona = (await createPersona(h, org.as(owner))).id
  return {
    owner,
    member,
    org,
    alice,
    bob,
    persona,
    asOwner: org.as(owner),
    asMember: org.as(member),
    asAlice: { token: alice.token },
    asBob: { token: bob.token },
  }
}
export type People = Awaited<ReturnType<typeof ecosystemWithPeople>>

/** The id of a new persona of `p`'s ecosystem, for a test that needs memories of its own. */
export async function newPersona(h: Harness, p: People): Promise<string> {
  return (await createPersona(h, p.asOwner)).id
}

/** For one test file: a fresh app (`env` configures it) and an ecosystem with people, handed to `use` before the tests. */
export function withEcosystem(use: (made: { h: Harness; p: People }) => void, env: Record<string, string> = {}) {
  let h: Harness | undefined
  beforeAll(async () => {
    h = await createHarness(env)
    use({ h, p: await ecosystemWithPeople(h) })
  })
  afterAll(() => h?.close())
}

/** Creates a memory and returns it; throws unless 201. */
export async function remember(h: Harness, who: { token: string; headers?: Record<string, string> }, body: Record<string, unknown>) {
  const res = await h.call('POST', '/persona_memory/memories', { ...who, body })
  if (res.status !== 201) throw new Error(`create memory failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

export type { Provisioned, RegisteredUser }
