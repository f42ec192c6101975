/** Setup for phase 2: each tenant's own resources, so that operations can be sent with the caller's own ids. */
import { type IdOf, type Operation, requiredQuery, validObject } from './schema'
import type { FuzzSession } from './session'
import { type Actors, actorsOf, fillOwn, idsOf, MEMBER_EMAIL, type Tenant } from './tenants'

/** Creates one of everything a collection POST makes (valid-shaped bodies), then notes ids, slugs and names from each list. */
export async function harvest(session: FuzzSession, ops: Operation[], t: Tenant, other: Tenant) {
  const as = actorsOf(t, other)
  const idOf = idsOf(t)
  const refused = await createCollections(session, ops, t, as, idOf)
  const site = await session.send(
    'PUT',
    '/site/services/fuzz-site',
    as.admin,
    JSON.stringify({ kind: 'webhook', enabled: false, config: { url: 'http://127.0.0.1:9/site' } }),
  )
  refused.set('PUT /site/services/fuzz-site', `${site.status} ${site.text.slice(0, 160)}`)
  const slug = `fuzz-owner-${t.label}`
  if ((await session.send('PATCH', '/auth/me', as.owner, JSON.stringify({ slug }))).status === 200) t.slug = slug
  if (process.env.FUZZ_DEBUG) for (const [k, v] of refused) if (!t.found.has(k)) session.log(`  not created: ${k}: ${v}`)
  // A conversation with messages, for `{messageId}`.
  const conversation = t.found.get('/chat/conversations')?.id
  if (conversation)
    for (const who of [as.customer, as.admin]) await session.send('POST', `/chat/conversations/${conversation}/messages`, who, '{"message":"hello"}')
  await noteFirstRows(session, ops, t, as, idOf)
}

/** One POST to each collection (two passes: some need the ids of others); what each caller was answered, by collection. */
async function createCollections(session: FuzzSession, ops: Operation[], t: Tenant, as: Actors, idOf: IdOf): Promise<Map<string, string>> {
  const collections = ops.filter(
    (op) =>
      op.method === 'POST' &&
      !op.template.includes('{') &&
      op.body &&
      (op.template === '/storage/uploads' || ops.some((o) => o.template.startsWith(`${op.template}/{`))),
  )
  const overrides: Record<string, Record<string, unknown>> = {
    '/persona/services': { name: 'fuzz service', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'fuzz-key' },
    '/contract/contracts': { name: `fuzz_${t.label}_extra`, columns: [{ name: 'title', type: 'text' }] },
    '/integrations/webhooks': { events: ['customer.created'] },
    '/oauth/clients': { scopes: ['profile'] },
    '/registry/ecosystems': { rdid: undefined },
    // An account in no organization (another tenant's owner as a member would open its ecosystem to this one).
    '/team/members': { email: MEMBER_EMAIL, role: 'member' },
  }
  /** Bodies used as they are (a generic guess would name things that do not exist). */
  const replacements: Record<string, Record<string, unknown>> = { '/chat/conversations': { title: 'fuzz conversation' } }
  const refused = new Map<string, string>()
  for (let pass = 0; pass < 2; pass++) {
    for (const op of collections) {
      if (t.found.has(op.template) || (op.template === '/storage/uploads' && t.found.has('/storage/attachments'))) continue
      const body = replacements[op.template] ?? { ...validObject(op.body!, idOf), ...overrides[op.template] }
      for (const who of [as.admin, as.owner, as.customer]) {
        const res = await session.send('POST', op.template, who, JSON.stringify(body))
        refused.set(
          op.template,
          `${refused.get(op.template) ?? ''}\n    ${who.name}: ${res.status} ${res.text.slice(0, 200)} ← ${JSON.stringify(body).slice(0, 300)}`,
        )
        if (res.status < 300 && res.json && typeof res.json === 'object') {
          const row = res.json.id ? res.json : (Object.values(res.json).find((v: any) => v?.id) ?? res.json)
          t.found.set(op.template === '/storage/uploads' ? '/storage/attachments' : op.template, row)
          break
        }
      }
    }
  }
  return refused
}

/** The first row of each list the tenant can fill the path of, as its own (and a conversation's first message). */
async function noteFirstRows(session: FuzzSession, ops: Operation[], t: Tenant, as: Actors, idOf: IdOf) {
  for (const op of ops.filter((o) => o.method === 'GET')) {
    const path = fillOwn(op.template, t)
    if (!path || t.found.has(op.template)) continue
    for (const who of [as.admin, as.owner, as.customer]) {
      const res = await session.send('GET', path + requiredQuery(op, idOf), who)
      const list = Array.isArray(res.json?.items)
        ? res.json.items
        : Array.isArray(res.json?.rows)
          ? res.json.rows
          : Array.isArray(res.json)
            ? res.json
            : undefined
      const first = list?.find((x: any) => x && typeof x === 'object')
      if (first) {
        t.found.set(op.template, first)
        break
      }
      if (Array.isArray(res.json?.messages) && res.json.messages[0]) t.found.set(`${op.template}/messages`, res.json.messages[0])
    }
  }
}
