import { type Condition, type Filter, type FilterValue, isGroup } from './query'

/**
 * The list grammar's conditions decided in memory on one record as its list route returns it
 * (a realtime subscription's filter), with SQL's meaning: a comparison with null is unknown, `not`
 * of unknown is unknown, and only a true condition matches, so `not.eq.x` leaves nulls out as the
 * list route does.
 */
export function matches(conditions: readonly Condition[], record: Record<string, unknown>): boolean {
  return conditions.every((c) => decide(c, record) === true)
}

type Truth = boolean | null

function decide(condition: Condition, record: Record<string, unknown>): Truth {
  if (!isGroup(condition)) return negate(compare(condition, Object.hasOwn(record, condition.column) ? record[condition.column] : null), condition.not)
  const results = condition.conditions.map((c) => decide(c, record))
  const combined =
    condition.combine === 'and'
      ? results.includes(false)
        ? false
        : results.includes(null)
          ? null
          : true
      : results.includes(true)
        ? true
        : results.includes(null)
          ? null
          : false
  return negate(combined, condition.not)
}

const negate = (truth: Truth, not: true | undefined): Truth => (not && truth !== null ? !truth : truth)

function compare(filter: Filter, raw: unknown): Truth {
  if (filter.op === 'is') return filter.value === null ? raw === null || raw === undefined : raw === filter.value
  const value = normalize(raw, filter) as number
  if (value === null) return null
  switch (filter.op) {
    case 'eq':
      return value === normalize(filter.value, filter)
    case 'neq':
      return value !== normalize(filter.value, filter)
    case 'gt':
      return value > (normalize(filter.value, filter) as number)
    case 'gte':
      return value >= (normalize(filter.value, filter) as number)
    case 'lt':
      return value < (normalize(filter.value, filter) as number)
    case 'lte':
      return value <= (normalize(filter.value, filter) as number)
    case 'in':
      return (filter.value as FilterValue[]).some((v) => normalize(v, filter) === value)
    case 'like':
    case 'ilike':
      return likePattern(filter.value as string, filter.op === 'ilike').test(String(value))
  }
}

/** A value as the column's kind compares it: timestamps as epoch milliseconds, uuids in lower case, numbers as numbers. */
function normalize(value: unknown, filter: Filter): string | number | boolean | null {
  if (value === null || value === undefined) return null
  switch (filter.kind) {
    case 'timestamp': {
      const ms = value instanceof Date ? value.getTime() : new Date(String(value)).getTime()
      return Number.isNaN(ms) ? null : ms
    }
    case 'integer':
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value)
      return Number.isNaN(n) ? null : n
    }
    case 'uuid':
      return String(value).toLowerCase()
    case 'boolean':
      return typeof value === 'boolean' ? value : null
    default:
      return typeof value === 'string' ? value : JSON.stringify(value)
  }
}

const patterns = new Map<string, RegExp>()

/** A LIKE pattern as the grammar made it (`%` any run, `_` one character, `\` escapes) as a regular expression. */
function likePattern(pattern: string, anyCase: boolean): RegExp {
  const key = `${anyCase ? 'i' : 's'}${pattern}`
  let regex = patterns.get(key)
  if (!regex) {
    let source = ''
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern[i]!
      if (c === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]!)
      else if (c === '%') source += '[\\s\\S]*'
      else if (c === '_') source += '[\\s\\S]'
      else source += escapeRegExp(c)
    }
    regex = new RegExp(`^${source}$`, anyCase ? 'iu' : 'u')
    if (patterns.size > 1000) patterns.clear()
    patterns.set(key, regex)
  }
  return regex
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
