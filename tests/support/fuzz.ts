/** Hostile-input pieces shared by the fuzz tests (tests/security, tests/platform) and bench/fuzz. */
import { DERIVED_RESOURCES } from '../../src/modules'
import { communityResources } from '../../src/modules/community/resources'
import type { ColumnKind } from '../../src/platform/crud/query'

/**
 * Every table-derived list (data, userdata, community) as the fuzzers address it. `example` is a
 * valid create body for an actor, naming the rows it made before from `ids[actor]` (by resource).
 */
export function derivedListTargets(ids: Record<string, Record<string, string>>) {
  return [...DERIVED_RESOURCES, ...communityResources({ categories: {}, threads: {}, replies: {} })].map((spec) => ({
    name: `${spec.schema}/${spec.resource}`,
    path: `/${spec.schema}/${spec.resource}`,
    resource: spec.resource,
    filterable: spec.filterable,
    sortable: spec.sortable,
    example: (actor: string) => spec.example(ids[actor]!),
  }))
}

/** `{"a":[{"a":…}]}`: `depth` levels of objects and arrays in turn, an object at the top (refused past 64). */
export function nested(depth: number): string {
  let open = ''
  let close = ''
  for (let level = 1; level <= depth; level++) {
    open += level % 2 ? '{"a":' : '['
    close = (level % 2 ? '}' : ']') + close
  }
  return `${open}1${close}`
}

/** A contract with a column of every kind, two of them named as every object's own members are (or nearly). */
export const FUZZ_CONTRACT_COLUMNS = [
  { name: 'title', type: 'text', indexed: true },
  { name: 'note', type: 'text' },
  { name: 'n', type: 'integer', indexed: true },
  { name: 'score', type: 'number' },
  { name: 'done', type: 'boolean' },
  { name: 'at', type: 'timestamp', indexed: true },
  { name: 'meta', type: 'json' },
  { name: 'ref', type: 'uuid' },
  { name: 'constructor', type: 'text', unique: true },
  { name: 'prototype', type: 'integer', indexed: true },
] as const

/** The access the fuzzers give their contracts: every customer reads all rows, creates, and changes their own. */
export const FUZZ_CONTRACT_ACCESS = { read: 'all', create: true, update: 'own', delete: 'own' } as const

/** The rows of the contract `name` (FUZZ_CONTRACT_COLUMNS) as a list the fuzzers address; `uuid` makes each example row's unique values. */
export function fuzzContractList(name: string, uuid: () => string) {
  const kinds: Record<string, ColumnKind> = { id: 'uuid', customerId: 'uuid', createdAt: 'timestamp', updatedAt: 'timestamp' }
  for (const c of FUZZ_CONTRACT_COLUMNS) kinds[c.name] = c.type
  return {
    name: 'contract rows',
    path: `/contract/contracts/${name}/rows`,
    filterable: kinds,
    sortable: Object.keys(kinds).filter((k) => kinds[k] !== 'json'),
    example: () => ({
      title: 'probe',
      note: 'note',
      n: 1,
      score: 1.5,
      done: true,
      at: '2026-01-02T03:04:05.000Z',
      meta: { a: [1, { b: null }] },
      ref: uuid(),
      constructor: `c-${uuid()}`,
      prototype: 7,
    }),
  }
}
