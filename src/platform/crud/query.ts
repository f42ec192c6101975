import { AppError } from '../errors'
import { MAX_PAGE, type PageParams } from '../paging'

/**
 * The list query grammar every derived list (and contract rows) speaks, PostgREST's operators:
 * `?<column>=<op>.<value>` filters (repeat a column to AND several), `sort=-createdAt,title`,
 * `page`, `pageSize` (1–100), `includeDeleted=true`. Values are parsed here for the column's kind
 * and always reach SQL as bound parameters.
 */
export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json' | 'uuid'
export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is' | 'ilike'
/**
 * Converted for the column kind: number, boolean, Date (timestamp), string (text, uuid). `in` has an
 * array; `is` has null, true or false; `ilike` a LIKE pattern (`*` → `%`; `%`, `_`, `\` escaped).
 */
export type FilterValue = string | number | boolean | Date | null
export interface Filter {
  column: string
  kind: ColumnKind
  op: FilterOp
  value: FilterValue | FilterValue[]
}
export interface SortKey {
  column: string
  descending: boolean
}
export interface ListQueryPolicy {
  filterable: Readonly<Record<string, ColumnKind>>
  sortable: readonly string[]
  defaultSort: readonly SortKey[]
}
export interface ListQuery {
  filters: Filter[]
  sort: SortKey[]
  page: PageParams
  includeDeleted: boolean
}

export const RESERVED_KEYS = ['page', 'pageSize', 'sort', 'includeDeleted'] as const
const ORDERED: ReadonlySet<ColumnKind> = new Set(['integer', 'number', 'timestamp'])
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const IN_LIST_MAX = 100

const invalid = (message: string) => new AppError(400, 'validation_failed', message)

export function parseListQuery(raw: Record<string, string | string[] | undefined>, policy: ListQueryPolicy): ListQuery {
  const filters: Filter[] = []
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || (RESERVED_KEYS as readonly string[]).includes(key)) continue
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's members.
    const kind = Object.hasOwn(policy.filterable, key) ? policy.filterable[key] : undefined
    if (!kind) throw invalid(`query.${key}: not a filterable column (filterable: ${Object.keys(policy.filterable).join(', ') || 'none'})`)
    for (const expression of Array.isArray(value) ? value : [value]) filters.push(parseFilter(key, kind, expression))
  }
  const page = boundedInt(single(raw, 'page'), 'page', 1, MAX_PAGE, 1)
  const pageSize = boundedInt(single(raw, 'pageSize'), 'pageSize', 1, 100, 20)
  return {
    filters,
    sort: parseSort(single(raw, 'sort'), policy),
    page: { page, pageSize, offset: (page - 1) * pageSize },
    includeDeleted: parseBool(single(raw, 'includeDeleted') ?? 'false', 'query.includeDeleted'),
  }
}

/**
 * A URL's query string as given, repeated keys as arrays: the grammar reads this, not Elysia's
 * coercion. A null-prototype object, so `__proto__=…` is a key like any other.
 */
export function rawQuery(url: string): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = Object.create(null)
  for (const [key, value] of new URL(url).searchParams) {
    const seen = raw[key]
    raw[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  return raw
}

function single(raw: Record<string, string | string[] | undefined>, key: string): string | undefined {
  const value = Object.hasOwn(raw, key) ? raw[key] : undefined
  if (Array.isArray(value)) throw invalid(`query.${key}: give it once`)
  return value
}

function boundedInt(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw invalid(`query.${name}: an integer from ${min} to ${max}`)
  return Number(value)
}

function parseSort(value: string | undefined, policy: ListQueryPolicy): SortKey[] {
  if (value === undefined || value === '') return [...policy.defaultSort]
  const keys = value.split(',').map((part) => {
    const descending = part.startsWith('-')
    const column = descending ? part.slice(1) : part
    if (!policy.sortable.includes(column)) throw invalid(`query.sort: ${column || '(empty)'} is not sortable (sortable: ${policy.sortable.join(', ')})`)
    return { column, descending }
  })
  if (new Set(keys.map((k) => k.column)).size !== keys.length) throw invalid('query.sort: a column appears twice')
  return keys
}

function parseFilter(column: string, kind: ColumnKind, expression: string): Filter {
  const dot = expression.indexOf('.')
  const op = (dot < 0 ? '' : expression.slice(0, dot)) as FilterOp
  const text = expression.slice(dot + 1)
  const where = `query.${column}`
  switch (op) {
    case 'eq':
    case 'neq':
      if (kind === 'json') throw invalid(`${where}: json columns cannot be compared; use is.null`)
      return { column, kind, op, value: parseValue(text, kind, where) }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (!ORDERED.has(kind)) throw invalid(`${where}: ${op} compares numbers and timestamps only`)
      return { column, kind, op, value: parseValue(text, kind, where) }
    case 'in': {
      if (kind === 'json') throw invalid(`${where}: json columns cannot be compared; use is.null`)
      if (!text.startsWith('(') || !text.endsWith(')')) throw invalid(`${where}: write in.(a,b,c)`)
      const items = text.slice(1, -1).split(',')
      if (items.length > IN_LIST_MAX) throw invalid(`${where}: at most ${IN_LIST_MAX} values in in.(…)`)
      return { column, kind, op, value: items.map((item) => parseValue(item, kind, where)) }
    }
    case 'is':
      if (text === 'null') return { column, kind, op, value: null }
      if (kind === 'boolean' && (text === 'true' || text === 'false')) return { column, kind, op, value: text === 'true' }
      throw invalid(`${where}: is.null${kind === 'boolean' ? ', is.true or is.false' : ''}`)
    case 'ilike':
      if (kind !== 'text') throw invalid(`${where}: ilike matches text columns only`)
      return { column, kind, op, value: text.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%') }
    default:
      throw invalid(`${where}: write <op>.<value> with op one of eq, neq, gt, gte, lt, lte, in, is, ilike`)
  }
}

function parseValue(text: string, kind: ColumnKind, where: string): FilterValue {
  switch (kind) {
    case 'integer':
      if (!/^-?\d{1,15}$/.test(text)) throw invalid(`${where}: ${JSON.stringify(text.slice(0, 40))} is not an integer`)
      return Number(text)
    case 'number': {
      const n = Number(text)
      if (text.trim() === '' || !Number.isFinite(n)) throw invalid(`${where}: ${JSON.stringify(text.slice(0, 40))} is not a number`)
      return n
    }
    case 'boolean':
      return parseBool(text, where)
    case 'timestamp': {
      const at = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? new Date(text) : null
      if (!at || Number.isNaN(at.getTime())) throw invalid(`${where}: ${JSON.stringify(text.slice(0, 40))} is not an ISO 8601 timestamp`)
      return at
    }
    case 'uuid':
      if (!UUID.test(text)) throw invalid(`${where}: ${JSON.stringify(text.slice(0, 40))} is not a UUID`)
      return text.toLowerCase()
    default:
      return text
  }
}

function parseBool(text: string, where: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true'
  throw invalid(`${where}: true or false`)
}
