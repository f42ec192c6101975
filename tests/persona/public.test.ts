import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'

const SECRET_KEY = 'sk-never-public-0123456789'
const PRIVATE_PROMPT = 'PRIVATE PROMPT: the launch code is 0000'

let h: Harness
let alice: RegisteredUser
let bob: RegisteredUser
let orgA: Provisioned
let orgB: Provisioned
let serviceId: string
/** Strings that must never appear in a public answer. */
let secrets: string[]

beforeAll(async () => {
  h = await createHarness()
  alice = await h.register({ name: 'Alice Liddell' })
  bob = await h.register({ name: 'Bob' })
  await h.call('PATCH', '/auth/me', { token: alice.token, body: { slug: 'alice' } })
  orgA = await provision(h, alice)
  orgB = await provision(h, bob)
  const service = await h.call('POST', '/persona/services', { ...orgA.as(alice), body: { baseUrl: 'https://llm.internal.example/v1', apiKey: SECRET_KEY } })
  serviceId = service.body.id
  const persona = (org: Provisioned, user: RegisteredUser, body: object) => h.call('POST', '/persona/personas', { ...org.as(user), body })
  await persona(orgA, alice, {
    slug: 'guide',
    name: 'Guide',
    description: 'Shows the way',
    modelPrompt: 'Guide people.',
    visibility: 'public',
    serviceId,
    model: 'gpt-x',
  })
  await persona(orgA, alice, { slug: 'hidden', name: 'Hidden', modelPrompt: PRIVATE_PROMPT, visibility: 'private' })
  await persona(orgA, alice, { slug: 'secret-link', name: 'Link only', modelPrompt: 'Unlisted prompt', visibility: 'unlisted' })
  await persona(orgA, alice, { slug: 'shared', name: 'Shared A', visibility: 'public' })
  await persona(orgB, bob, { slug: 'shared', name: 'Shared B', visibility: 'unlisted' })
  await persona(orgB, bob, { slug: 'bobs', name: 'Bob’s', visibility: 'public' })
  secrets = [SECRET_KEY, PRIVATE_PROMPT, 'llm.internal.example', serviceId, alice.email, bob.email, 'gpt-x', 'Hidden']
})
afterAll(() => h.close())

function expectNoSecrets(body: unknown) {
  const text = JSON.stringify(body)
  for (const secret of secrets) expect(text.includes(secret), `public answer leaks ${secret}`).toBe(false)
}

describe('public persona pages (no credentials)', () => {
  test('the listing has public personas only, newest first, with their owner', async () => {
    const res = await h.call('GET', '/public/personas?pageSize=100')
    expect(res.status).toBe(200)
    expect(res.body.items.map((p: any) => p.slug)).toEqual(['bobs', 'shared', 'guide'])
    expect(res.body.total).toBe(3)
    expect(res.body.items[2]).toEqual({
      slug: 'guide',
      name: 'Guide',
      description: 'Shows the way',
      visibility: 'public',
      createdAt: expect.any(String),
      owner: { slug: 'alice', displayName: 'Alice Liddell', avatarUrl: null },
      ecosystemId: orgA.ecosystem.id,
    })
    // Bob has no login slug, hence no public profile.
    expect(res.body.items[0].owner).toBeNull()
    expectNoSecrets(res.body)
  })

  test('the listing narrows to one ecosystem by id or rdid', async () => {
    const byId = await h.call('GET', `/public/personas?ecosystem=${orgB.ecosystem.id}`)
    expect(byId.body.items.map((p: any) => p.slug)).toEqual(['bobs'])
    const byRdid = await h.call('GET', `/public/personas?ecosystem=${orgA.ecosystem.rdid}`)
    expect(byRdid.body.items.map((p: any) => p.slug)).toEqual(['shared', 'guide'])
    expect((await h.call('GET', '/public/personas?ecosystem=org.nowhere.main')).status).toBe(404)
  })

  test('one persona by slug: public and unlisted yes, private never', async () => {
    const guide = await h.call('GET', '/public/personas/guide')
    expect(guide.status).toBe(200)
    expect(guide.body).toEqual({
      slug: 'guide',
      name: 'Guide',
      description: 'Shows the way',
      modelPrompt: 'Guide people.',
      voice: null,
      character: null,
      examples: null,
      visibility: 'public',
      createdAt: expect.any(String),
      owner: { slug: 'alice', displayName: 'Alice Liddell', avatarUrl: null },
      ecosystemId: orgA.ecosystem.id,
    })
    expectNoSecrets(guide.body)
    const unlisted = await h.call('GET', '/public/personas/secret-link')
    expect(unlisted.body).toMatchObject({ visibility: 'unlisted', modelPrompt: 'Unlisted prompt' })
    const hidden = await h.call('GET', '/public/personas/hidden')
    expect(hidden.status).toBe(404)
    expectNoSecrets(hidden.body)
  })

  test('a slug used in several ecosystems is ambiguous until ?ecosystem names one', async () => {
    const ambiguous = await h.call('GET', '/public/personas/shared')
    expect(ambiguous.status).toBe(409)
    expect(ambiguous.body.error.code).toBe('ambiguous_slug')
    expect((await h.call('GET', `/public/personas/shared?ecosystem=${orgA.ecosystem.id}`)).body.name).toBe('Shared A')
    expect((await h.call('GET', `/public/personas/shared?ecosystem=${orgB.ecosystem.rdid}`)).body.name).toBe('Shared B')
    expect((await h.call('GET', `/public/personas/hidden?ecosystem=${orgA.ecosystem.id}`)).status).toBe(404)
  })

  test('a user profile: display name, avatar and public personas, never the e-mail', async () => {
    const res = await h.call('GET', '/public/users/alice')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      slug: 'alice',
      displayName: 'Alice Liddell',
      avatarUrl: null,
      createdAt: expect.any(String),
      personas: [expect.objectContaining({ slug: 'shared' }), expect.objectContaining({ slug: 'guide' })],
    })
    expectNoSecrets(res.body)
    expect((await h.call('GET', '/public/users/nobody-here')).status).toBe(404)
    expect((await h.call('GET', '/public/users/NOT_A_SLUG!')).status).toBe(400)
  })

  test('a persona turned private disappears from every public answer', async () => {
    const list = await h.call('GET', '/persona/personas?pageSize=100', orgA.as(alice))
    const guide = list.body.items.find((p: any) => p.slug === 'guide')
    await h.call('PATCH', `/persona/personas/${guide.id}`, { ...orgA.as(alice), body: { visibility: 'private' } })
    expect((await h.call('GET', '/public/personas/guide')).status).toBe(404)
    expect((await h.call('GET', '/public/personas')).body.items.map((p: any) => p.slug)).not.toContain('guide')
    expect((await h.call('GET', '/public/users/alice')).body.personas.map((p: any) => p.slug)).toEqual(['shared'])
  })
})
