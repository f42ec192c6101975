/** Phase 2: every operation of the app's own OpenAPI document (the event stream apart), as tenant a and as others. */
import { fmt } from '../support'
import { harvest } from './harvest'
import { type IdOf, type Operation, operationsOf, requiredQuery, validObject } from './schema'
import type { Actor, FuzzSession } from './session'
import { fillOwn, idsOf, type Tenants } from './tenants'
import {
  BAD_AUTH,
  BAD_CONTENT_TYPES,
  BAD_ECOSYSTEM,
  FIELD_VALUES,
  PATH_GARBAGE,
  PROTOTYPE_NAMES,
  pick,
  QUERY_EXTRAS,
  QUERY_GARBAGE,
  RAW_BODIES,
  type Rng,
  rngUuid,
  withKey,
} from './values'

/** One operation and what each of its requests starts from. */
interface Call {
  op: Operation
  idOf: IdOf
  hasBody: boolean
  /** A valid-shaped body built from the operation's schema, and as JSON text. */
  base?: Record<string, unknown>
  baseText?: string
  /** The path with the caller's own values, when all are known. */
  own?: string
  /** The required query parameters (`?a=…`), or ''. */
  rq: string
  /** The path the query, header and body requests go to: the caller's own, else uuids of nothing, and `rq`. */
  main: string
  /** One request to the operation, counted under its template. */
  send(path: string, who: Actor, body?: string, extra?: Record<string, string>): Promise<unknown>
}

/** Harvests each tenant's own ids (setup), then sends every operation its requests; the operations. */
export async function operations(session: FuzzSession, tenants: Tenants): Promise<Operation[]> {
  const { a, b } = tenants
  session.phase = 'setup'
  const doc = (await session.send('GET', '/openapi/json', tenants.actors.none)).json
  const ops = operationsOf(doc)
  for (const [t, other] of [
    [a, b],
    [b, a],
  ] as const)
    await harvest(session, ops, t, other)

  session.phase = 'operations'
  const opsT0 = performance.now()
  let done = 0
  // DELETEs last (with the tenant's own ids they remove what the others stand on); the ecosystem and the customer at the very end.
  const rank = (op: Operation) => (op.method !== 'DELETE' ? 0 : /^\/(registry\/ecosystems|customer\/customers)\//.test(op.template) ? 2 : 1)
  for (const op of [...ops].sort((x, y) => rank(x) - rank(y))) {
    const call = callOf(session, tenants, op)
    await pathRequests(session, tenants, call)
    await queryRequests(session, tenants, call)
    await headerRequests(tenants, call)
    if (call.hasBody || op.method !== 'GET') await bodyRequests(session, tenants, call)
    // Some operations end a session or a token (revoke-all, change-password): put them back.
    await tenants.heal(a)
    await tenants.heal(b)
    if (++done % 25 === 0)
      session.log(
        `  ${session.backend}: ${done}/${ops.length} operations, ${fmt(session.phases.operations!.requests)} requests, ${((performance.now() - opsT0) / 1000).toFixed(0)} s`,
      )
  }
  return ops
}

/** The operation's base body, own path and required query as tenant a (the seeded uuids drawn here, before its paths'). */
function callOf(session: FuzzSession, tenants: Tenants, op: Operation): Call {
  const { method, template } = op
  const hasBody = op.body !== undefined || op.contentTypes.length > 0
  const idOf = idsOf(tenants.a)
  const base = op.body ? validObject(op.body, idOf) : undefined
  const baseText = base === undefined ? (hasBody ? '{}' : undefined) : JSON.stringify(base)
  const own = fillOwn(template, tenants.a)
  const rq = requiredQuery(op, idOf)
  const main = (own ?? template.replace(/\{[^}]+\}/g, () => rngUuid(session.rng))) + rq
  const send = (path: string, who: Actor, body?: string, extra: Record<string, string> = {}) => session.send(method, path, who, body, extra, template)
  return { op, idOf, hasBody, base, baseText, own, rq, main, send }
}

/** The callers other than the two that pass the guards (tenant a's admin and customer). */
const otherActors = ({ actors }: Tenants) => [actors.none, actors.owner, actors.api, actors.otherEco]

/** Path parameters: garbage, a uuid of nothing, the caller's own, another tenant's; every actor. */
async function pathRequests(session: FuzzSession, tenants: Tenants, { op, own, rq, baseText, send }: Call) {
  const { rng } = session
  const { template } = op
  const otherTenants = fillOwn(template, tenants.b)
  const paramCount = (template.match(/\{/g) ?? []).length
  const paths = paramCount
    ? [
        ...PATH_GARBAGE.map((g) => template.replace(/\{[^}]+\}/g, g)),
        template.replace(/\{[^}]+\}/g, () => rngUuid(rng)),
        ...(otherTenants ? [otherTenants] : []),
        // The last parameter garbage or another tenant's, the ones before it the caller's own.
        ...(paramCount > 1 ? [...PATH_GARBAGE.slice(0, 6), rngUuid(rng)].map((g) => fillOwn(template, tenants.a, g)).filter((p): p is string => !!p) : []),
        ...(own ? [own] : []),
      ]
    : [template]
  const allActors = Object.values(tenants.actors)
  for (const path of paths) for (const who of allActors) await send(path + rq, who, baseText)
}

/** Query parameters, and names no operation takes. */
async function queryRequests(session: FuzzSession, tenants: Tenants, { op, idOf, main, baseText, send }: Call) {
  const { actors } = tenants
  const queryParams = op.params.filter((p) => p.in === 'query').map((p) => p.name)
  const queries = [...queryParams.flatMap((name) => QUERY_GARBAGE.map((v) => `${name}=${v}`)), ...QUERY_EXTRAS]
  for (const q of queries) {
    for (const who of [actors.admin, actors.customer, pick(session.rng, otherActors(tenants))])
      await send(main.split('?')[0] + requiredQuery(op, idOf, q), who, baseText)
  }
}

/** Headers: broken credentials, ecosystems, content types. */
async function headerRequests(tenants: Tenants, { hasBody, main, baseText, send }: Call) {
  const { a, actors } = tenants
  for (const auth of BAD_AUTH) await send(main, { name: 'bad authorization' }, baseText, { authorization: auth })
  for (const eco of BAD_ECOSYSTEM) {
    for (const token of [a.owner.token, a.apiToken!, a.customer.token]) {
      await send(main, { name: `bad X-Ecosystem-Id`, token }, baseText, { 'x-ecosystem-id': eco })
    }
  }
  if (hasBody) {
    for (const type of BAD_CONTENT_TYPES) {
      for (const who of [actors.admin, actors.customer]) await send(main, who, baseText ?? '{}', { 'content-type': type })
    }
  }
}

/** Bodies: whole-body garbage, then each field of a valid-shaped body replaced. */
async function bodyRequests(session: FuzzSession, tenants: Tenants, { op, base, main, send }: Call) {
  const { actors } = tenants
  const bodies = [...RAW_BODIES, ...(base ? fieldBodies(op, base, session.rng) : [])]
  for (const [i, body] of bodies.entries()) {
    // Each body as the two callers that pass the guards; every fourth also as one of the others.
    for (const who of [actors.admin, actors.customer, ...(i % 4 === 0 ? [pick(session.rng, otherActors(tenants))] : [])]) await send(main, who, body)
  }
}

/** The valid-shaped body with each field (and the first fields one level down) replaced or left out, and prototype keys added. */
function fieldBodies(op: Operation, base: Record<string, unknown>, rng: Rng): string[] {
  const bodies: string[] = []
  const fields = Object.keys(op.body?.properties ?? {})
  for (const field of fields) {
    for (const value of FIELD_VALUES) bodies.push(withKey(base, field, value))
    const { [field]: _, ...without } = base
    bodies.push(JSON.stringify(without))
    // One level down: the first field of an object or of an array's first object.
    const inner = base[field]
    const innerObject = Array.isArray(inner) ? inner[0] : inner
    if (innerObject && typeof innerObject === 'object' && !Array.isArray(innerObject)) {
      for (const key of Object.keys(innerObject).slice(0, 3)) {
        for (const value of [pick(rng, FIELD_VALUES), pick(rng, FIELD_VALUES), '{"__proto__":{"x":1}}']) {
          const changed = withKey(innerObject, key, value)
          bodies.push(withKey(base, field, Array.isArray(inner) ? `[${changed}]` : changed))
        }
      }
    }
  }
  for (const name of PROTOTYPE_NAMES) for (const value of ['"x"', '{"polluted":1}', 'null']) bodies.push(withKey(base, name, value))
  bodies.push(withKey(base, 'x\\ud800', '1'), JSON.stringify([base]), JSON.stringify({ ...base, extra: 'x'.repeat(100_000) }))
  return bodies
}
