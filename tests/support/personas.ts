import type { CallOptions, Harness } from './harness'

let counter = 0

/**
 * Creates a persona in the ecosystem `admin` acts in (an admin's or owner's account credential
 * with X-Ecosystem-Id); `body` overrides the generated slug and name. Throws unless 201.
 */
export async function createPersona(h: Harness, admin: Pick<CallOptions, 'token' | 'headers'>, body: Record<string, unknown> = {}) {
  const n = ++counter
  const res = await h.call('POST', '/persona/personas', { ...admin, body: { slug: `persona-${n}`, name: `Persona ${n}`, ...body } })
  if (res.status !== 201) throw new Error(`create persona failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { id: string; slug: string; name: string }
}
