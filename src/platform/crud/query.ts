import { MAX_PAGE, type PageParams } from '../paging'
import { isUuid } from '../params'
import { invalid, splitList, unquote } from './grammar'
import { escapeLike } from '../db/like'

/**
 * The list query grammar every derived list (and contract rows) speaks, PostgREST's as it writes
 * it: `?<column>=[not.]<op>.<value>` filters (repeat a column to AND several), `or=(…)` / `and=(…)`
 * trees nested up to MAX_DEPTH levels, `sort=-createdAt,title` or its alias
 * `order=createdAt.desc.nullslast,title`, `select=a,b`, `page`, `pageSize` (1–100),
 * `includeDeleted=true`. Values are parsed here for the column's kind and always reach SQL as bound
 * parameters; names are looked up as own keys only.
 */
export type ColumnKind = 'text' | 'integer' | 'number' | 'boolean' | 'timestamp' | 'json' | 'uuid'
export type FilterOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'is' | 'like' | 'ilike'
/**
 * Converted for the column kind: number, boolean, Date (timestamp), string (text, uuid). `in` has an
 * array; `is` has null, true or false; `like`/`ilike` a LIKE pattern (`*` → `%`; `%`, `_`, `\` escaped).
 */
export type FilterValue = string | number | boolean | Date | null
export interface Filter {
  column: string
  kind: ColumnKind
  op: FilterOp
  value: FilterValue | FilterValue[]
  /** `not.`: the condition negated (SQL NOT, so a null value matches neither form, as in PostgREST). */
  not?: true
}
/** `or=(…)`, `and=(…)` and their nested `or(…)`, `and(…)`, `not.or(…)`, `not.and(…)`. */
export interface FilterGroup {
  combine: 'and' | 'or'
  conditions: Condition[]
  not?: true
}
export type Condition = Filter | FilterGroup
export const isGroup = (c: Condition): c is FilterGroup => 'combine' in c

export interface SortKey {
  column: string
  descending: boolean
  /** Where nulls go; absent = the database's default (last ascending, first descending). */
  nulls?: 'first' | 'last'
}
export interface ListQueryPolicy {
  filterable: Readonly<Record<string, ColumnKind>>
  sortable: readonly string[]
  defaultSort: readonly SortKey[]
  /** Fields `select=` may name (the caller can read them all); absent = every filterable field. */
  selectable?: readonly string[]
  /** A key that comes first under any sort unless the caller sends `<param>=false` (pinned threads first). */
  leadingSort?: LeadingSort
}

export interface LeadingSort {
  param: string
  key: SortKey
  description: string
}
export interface ListQuery {
  filters: Condition[]
  sort: SortKey[]
  page: PageParams
  includeDeleted: boolean
  /** Fields named by `select=`, in order, or null for all of them. */
  select: string[] | null
}

export const RESERVED_KEYS = ['page', 'pageSize', 'sort', 'order', 'select', 'includeDeleted'] as const
export const LOGIC_KEYS = ['or', 'and', 'not.or', 'not.and'] as const
export const FILTER_OPS: readonly FilterOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'is', 'like', 'ilike']
/** `or=(…)` is level 1; `or=(a.eq.1,and(b.eq.2,or(c.eq.3,d.eq.4)))` reaches 3, the most allowed. */
export const MAX_DEPTH = 3
/** Conditions in one `or=`/`and=` tree, groups included. */
export const MAX_TREE_CONDITIONS = 100
const ORDERED: ReadonlySet<ColumnKind> = new Set(['integer', 'number', 'timestamp'])
const IN_LIST_MAX = 100
const GROUP = /^(not\.)?(and|or)\(/

type Raw = Record<string, string | string[] | undefined>

export function parseListQuery(raw: Raw, policy: ListQueryPolicy): ListQuery {
  const filters: Condition[] = []
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || (RESERVED_KEYS as readonly string[]).includes(key) || key === policy.leadingSort?.param) continue
    const expressions = Array.isArray(value) ? value : [value]
    if ((LOGIC_KEYS as readonly string[]).includes(key)) {
      const [not, combine] = key.startsWith('not.') ? [true, key.slice(4)] : [false, key]
      for (const expression of expressions) filters.push(parseTree(combine as 'and' | 'or', not, expression, `query.${key}`, policy))
      continue
    }
    // Own keys only: `constructor` or `__proto__` must not find Object.prototype's members.
    const kind = kindOf(policy, key)
    if (!kind) throw invalid(`query.${key}: not a filterable column (filterable: ${Object.keys(policy.filterable).join(', ') || 'none'})`)
    for (const expression of expressions) filters.push(parseFilter(key, kind, expression, `query.${key}`, false))
  }
  const page = boundedInt(single(raw, 'page'), 'page', 1, MAX_PAGE, 1)
  const pageSize = boundedInt(single(raw, 'pageSize'), 'pageSize', 1, 100, 20)
  const sort = single(raw, 'sort')
  const order = single(raw, 'order')
  if (sort !== undefined && order !== undefined) throw invalid('query.order: an alias of sort; give one of them')
  const lead = policy.leadingSort
  const leading = lead && parseBool(single(raw, lead.param) ?? 'true', `query.${lead.param}`) ? lead.key : undefined
  const sorted = parseSort(order ?? sort, order !== undefined ? 'order' : 'sort', policy)
  return {
    filters,
    sort: leading ? [leading, ...sorted.filter((k) => k.column !== leading.column)] : sorted,
    page: { page, pageSize, offset: (page - 1) * pageSize },
    includeDeleted: parseBool(single(raw, 'includeDeleted') ?? 'false', 'query.includeDeleted'),
    select: parseSelect(single(raw, 'select'), policy.selectable ?? Object.keys(policy.filterable)),
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

const kindOf = (policy: ListQueryPolicy, column: string) => (Object.hasOwn(policy.filterable, column) ? policy.filterable[column] : undefined)

function single(raw: Raw, key: string): string | undefined {
  const value = Object.hasOwn(raw, key) ? raw[key] : undefined
  if (Array.isArray(value)) throw invalid(`query.${key}: give it once`)
  return value
}

function boundedInt(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback
  if (!/^\d{1,6}$/.test(value) || Number(value) < min || Number(value) > max) throw invalid(`query.${name}: an integer from ${min} to ${max}`)
  return Number(value)
}

/** `-a,b` or `a.desc.nullslast,b.asc` (either form under either name). */
function parseSort(value: string | undefined, name: string, policy: ListQueryPolicy): SortKey[] {
  if (value === undefined || value === '') return [...policy.defaultSort]
  const keys = value.split(',').map((part) => {
    const minus = part.startsWith('-')
    const [column = '', ...modifiers] = (minus ? part.slice(1) : part).split('.')
    if (!policy.sortable.includes(column)) throw invalid(`query.${name}: ${column || '(empty)'} is not sortable (sortable: ${policy.sortable.join(', ')})`)
    const key: SortKey = { column, descending: minus }
    let direction = minus
    let nulls = false
    for (const modifier of modifiers) {
      if ((modifier === 'asc' || modifier === 'desc') && !direction) [key.descending, direction] = [modifier === 'desc', true]
      else if ((modifier === 'nullsfirst' || modifier === 'nullslast') && !nulls) [key.nulls, nulls] = [modifier === 'nullsfirst' ? 'first' : 'last', true]
      else throw invalid(`query.${name}: ${JSON.stringify(part.slice(0, 80))}: write column[.asc|.desc][.nullsfirst|.nullslast]`)
    }
    return key
  })
  if (new Set(keys.map((k) => k.column)).size !== keys.length) throw invalid(`query.${name}: a column appears twice`)
  return keys
}

function parseSelect(value: string | undefined, selectable: readonly string[]): string[] | null {
  if (value === undefined || value === '*') return null
  const fields = value.split(',')
  for (const field of fields) {
    if (!selectable.includes(field))
      throw invalid(`query.select: ${JSON.stringify(field.slice(0, 80))} is not a readable field (readable: ${selectable.join(', ')})`)
  }
  if (new Set(fields).size !== fields.length) throw invalid('query.select: a field appears twice')
  return fields
}

/** `(a.eq.1,not.b.in.(x,"y,z"),and(c.gt.2,d.is.null))` under `or`/`and` (`where` names the parameter). */
function parseTree(combine: 'and' | 'or', not: boolean, text: string, where: string, policy: ListQueryPolicy): FilterGroup {
  let count = 0
  const group = (combine: 'and' | 'or', not: boolean, text: string, depth: number): FilterGroup => {
    if (depth > MAX_DEPTH) throw invalid(`${where}: and/or nest at most ${MAX_DEPTH} levels deep`)
    const items = splitList(text, where)
    if (!items.length) throw invalid(`${where}: an empty ${combine}()`)
    const conditions = items.map((item): Condition => {
      if (++count > MAX_TREE_CONDITIONS) throw invalid(`${where}: at most ${MAX_TREE_CONDITIONS} conditions`)
      const nested = GROUP.exec(item)
      if (nested) return group(nested[2] as 'and' | 'or', nested[1] !== undefined, item.slice(nested[0].length - 1), depth + 1)
      const dot = item.indexOf('.')
      const column = dot < 0 ? item : item.slice(0, dot)
      const kind = kindOf(policy, column)
      if (!kind)
        throw invalid(
          `${where}: ${JSON.stringify(column.slice(0, 80))} is not a filterable column (filterable: ${Object.keys(policy.filterable).join(', ') || 'none'})`,
        )
      return parseFilter(column, kind, item.slice(dot + 1), `${where}: ${column}`, true)
    })
    return { combine, conditions, ...(not ? { not: true as const } : {}) }
  }
  return group(combine, not, text, 1)
}

/** `[not.]<op>.<value>`; inside a tree (`quoted`) a value may be double-quoted, as PostgREST allows. */
function parseFilter(column: string, kind: ColumnKind, expression: string, where: string, quoted: boolean): Filter {
  const negated = expression.startsWith('not.')
  const rest = negated ? expression.slice(4) : expression
  const dot = rest.indexOf('.')
  const op = dot < 0 ? '' : rest.slice(0, dot)
  if (!(FILTER_OPS as readonly string[]).includes(op)) throw invalid(`${where}: write [not.]<op>.<value> with op one of ${FILTER_OPS.join(', ')}`)
  const raw = rest.slice(dot + 1)
  const text = quoted && op !== 'in' ? unquote(raw, where) : raw
  const filter = (value: Filter['value']): Filter => ({ column, kind, op: op as FilterOp, value, ...(negated ? { not: true as const } : {}) })
  switch (op as FilterOp) {
    case 'eq':
    case 'neq':
      if (kind === 'json') throw invalid(`${where}: json columns cannot be compared; use is.null`)
      return filter(parseValue(text, kind, where))
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (!ORDERED.has(kind)) throw invalid(`${where}: ${op} compares numbers and timestamps only`)
      return filter(parseValue(text, kind, where))
    case 'in': {
      if (kind === 'json') throw invalid(`${where}: json columns cannot be compared; use is.null`)
      if (!text.startsWith('(') || !text.endsWith(')')) throw invalid(`${where}: write in.(a,b,c)`)
      // `in.()` is one empty value, as before quoting existed: text matches '', other kinds are 400.
      const items = splitList(text, where)
      if (!items.length) items.push('')
      if (items.length > IN_LIST_MAX) throw invalid(`${where}: at most ${IN_LIST_MAX} values in in.(…)`)
      return filter(items.map((item) => parseValue(unquote(item, where), kind, where)))
    }
    case 'is':
      if (text === 'null') return filter(null)
      if (kind === 'boolean' && (text === 'true' || text === 'false')) return filter(text === 'true')
      throw invalid(`${where}: is.null${kind === 'boolean' ? ', is.true or is.false' : ''}`)
    case 'like':
    case 'ilike':
      if (kind !== 'text') throw invalid(`${where}: ${op} matches text columns only`)
      return filter(escapeLike(text).replaceAll('*', '%'))
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
      if (!isUuid(text)) throw invalid(`${where}: ${JSON.stringify(text.slice(0, 40))} is not a UUID`)
      return text.toLowerCase()
    default:
      return text
  }
}

function parseBool(text: string, where: string): boolean {
  if (text === 'true' || text === 'false') return text === 'true'
  throw invalid(`${where}: true or false`)
}
