/** Phase 1: derived lists and contract rows, as admin and as customer. */
import type { ColumnKind } from '../../src/platform/crud/query'
import { derivedListTargets, FUZZ_CONTRACT_ACCESS, FUZZ_CONTRACT_COLUMNS, fuzzContractList } from '../../tests/support/fuzz'
import { fmt } from '../support'
import type { FuzzSession } from './session'
import { actorsOf, type Tenants } from './tenants'
import { FIELD_VALUES, FILTER_VALUES, PAGING, PATH_GARBAGE, PROTOTYPE_NAMES, pick, rngUuid, VALID_BY_KIND, withKey } from './values'

interface Target {
  name: string
  path: string
  filterable: Readonly<Record<string, ColumnKind>>
  sortable: readonly string[]
  example(actor: 'admin' | 'customer' | 'other'): Record<string, unknown>
  rows: Partial<Record<'admin' | 'customer', string>>
  otherRow?: string
}

/** Creates the targets and their rows (setup), sends the grid and the random mixes, then puts credentials back. */
export async function lists(session: FuzzSession, tenants: Tenants, listRandom: number) {
  session.phase = 'setup'
  const targets = await derivedTargets(session, tenants)
  targets.push(await contractTarget(session, tenants))

  session.phase = 'lists: grid'
  const listT0 = performance.now()
  await grid(session, tenants, targets)
  session.phase = 'lists: random mixes'
  await randomMixes(session, tenants, targets, listRandom)
  const { phases } = session
  session.log(
    `  ${session.backend}: lists and rows: ${fmt(phases['lists: grid']!.requests + phases['lists: random mixes']!.requests)} requests in ${((performance.now() - listT0) / 1000).toFixed(0)} s`,
  )
  await tenants.heal(tenants.a)
  await tenants.heal(tenants.b)
}

/** Every table-derived list, with a row as admin and as customer (where they may create one), and one of the other tenant's. */
async function derivedTargets(session: FuzzSession, tenants: Tenants): Promise<Target[]> {
  const { actors } = tenants
  const targets: Target[] = []
  const exampleIds: Record<string, Record<string, string>> = { admin: {}, customer: {}, other: {} }
  for (const { resource, ...list } of derivedListTargets(exampleIds)) {
    const target: Target = { ...list, rows: {} }
    for (const actor of ['admin', 'customer'] as const) {
      const res = await session.send('POST', target.path, actors[actor], JSON.stringify(target.example(actor)))
      if (res.status === 403) continue // only admins create community categories
      if (res.status !== 201) throw new Error(`create ${target.name} as ${actor}: ${res.status} ${res.text.slice(0, 200)}`)
      target.rows[actor] = exampleIds[actor]![resource] = res.json.id
    }
    const other = await session.send('POST', target.path, actorsOf(tenants.b, tenants.a).admin, JSON.stringify(target.example('other')))
    if (other.status === 201) target.otherRow = exampleIds.other![resource] = other.json.id
    targets.push(target)
  }
  return targets
}

/** The contracts `fuzz` (its rows the target) and `fuzzops` (for the operations), each with a row as admin and as customer. */
async function contractTarget(session: FuzzSession, tenants: Tenants): Promise<Target> {
  const { rng } = session
  const { actors } = tenants
  for (const name of ['fuzz', 'fuzzops'])
    await session.ok('POST', '/contract/contracts', actors.admin, { name, columns: FUZZ_CONTRACT_COLUMNS, access: FUZZ_CONTRACT_ACCESS })
  const list = fuzzContractList('fuzz', () => rngUuid(rng))
  const contract: Target = { ...list, rows: {} }
  for (const actor of ['admin', 'customer'] as const) contract.rows[actor] = (await session.ok('POST', contract.path, actors[actor], list.example())).id
  for (const actor of ['admin', 'customer'] as const) await session.ok('POST', '/contract/contracts/fuzzops/rows', actors[actor], list.example())
  return contract
}

/** Prototype names as filter and sort keys, every column with every malformed filter value, absurd paging. */
async function grid(session: FuzzSession, tenants: Tenants, targets: Target[]) {
  for (const actor of ['admin', 'customer'] as const) {
    const who = tenants.actors[actor]
    for (const target of targets) {
      const list = (query: string) => session.send('GET', `${target.path}?${query}`, who, undefined, {}, `${target.path}?…`)
      await list('')
      for (const name of PROTOTYPE_NAMES) {
        for (const value of ['is.null', 'eq.x', 'in.(', `eq.${'x'.repeat(10_000)}`]) await list(`${name}=${value}`)
        for (const sort of [name, `-${name}`, `createdAt,${name}`, `${name},${name}`]) await list(`sort=${sort}`)
      }
      for (const column of Object.keys(target.filterable)) for (const value of FILTER_VALUES) await list(`${column}=${value}`)
      for (const query of PAGING) await list(query)
    }
  }
}

/** Seeded mixes of filters, sorts and paging; mutated row bodies; garbage row ids. */
async function randomMixes(session: FuzzSession, tenants: Tenants, targets: Target[], listRandom: number) {
  const { rng } = session
  const keysOf = (t: Target) => [...Object.keys(t.filterable), ...PROTOTYPE_NAMES, 'x%ED%A0%80', '%00', 'a'.repeat(300), 'select', 'or', 'and', 'order']
  const sortOf = (t: Target) => {
    const parts = Array.from(
      { length: 1 + Math.floor(rng() * 3) },
      () => `${rng() < 0.4 ? '-' : ''}${pick(rng, [...t.sortable, ...PROTOTYPE_NAMES, '', '%00', '-'])}`,
    )
    return parts.join(rng() < 0.9 ? ',' : ',,')
  }
  for (let i = 0; i < listRandom; i++) {
    const actor = rng() < 0.5 ? 'admin' : 'customer'
    const target = pick(rng, targets)
    const who = tenants.actors[actor]
    const roll = rng()
    if (roll < 0.6) {
      const parts: string[] = []
      for (let n = 1 + Math.floor(rng() * 3); n > 0; n--) {
        const key = pick(rng, keysOf(target))
        const kind = Object.hasOwn(target.filterable, key) ? target.filterable[key] : undefined
        parts.push(`${key}=${kind && rng() < 0.5 ? pick(rng, VALID_BY_KIND[kind]) : pick(rng, FILTER_VALUES)}`)
      }
      if (rng() < 0.5) parts.push(`sort=${sortOf(target)}`)
      if (rng() < 0.4) parts.push(pick(rng, PAGING))
      await session.send('GET', `${target.path}?${parts.join('&')}`, who, undefined, {}, `${target.path}?…`)
    } else if (roll < 0.9) {
      // A row body with one field (or a prototype or surrogate key) replaced.
      const own = target.rows[actor]
      const [method, path] = own && rng() < 0.5 ? ['PATCH', `${target.path}/${own}`] : ['POST', target.path]
      const example = target.example(actor)
      const keys = [...Object.keys(example), ...PROTOTYPE_NAMES, 'x\\ud800', 'id', 'customerId', 'ownerId', 'deletedAt', 'createdAt']
      const body = withKey(example, pick(rng, keys), pick(rng, FIELD_VALUES))
      await session.send(method, path, who, body, {}, `${method === 'PATCH' ? `${target.path}/{id}` : target.path}`)
    } else {
      const id = pick(rng, [...PATH_GARBAGE, rngUuid(rng), target.otherRow ?? rngUuid(rng), target.rows[actor === 'admin' ? 'customer' : 'admin'] ?? 'x'])
      const method = pick(rng, ['GET', 'PATCH', 'DELETE'])
      await session.send(method, `${target.path}/${id}`, who, method === 'PATCH' ? JSON.stringify(target.example(actor)) : undefined, {}, `${target.path}/{id}`)
    }
  }
}
