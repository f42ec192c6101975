/** The app's OpenAPI document: its operations, $refs resolved, and values (objects, query strings) its schemas accept. */

type Schema = Record<string, any>
interface Param {
  name: string
  in: string
  schema?: Schema
}
export interface Operation {
  method: string
  template: string
  params: Param[]
  body?: Schema
  contentTypes: string[]
}
/** A tenant's own id for a field, by the field's name. */
export type IdOf = (field: string) => string | undefined

export function operationsOf(doc: any): Operation[] {
  const deref = (x: any): any => {
    let v = x
    for (let i = 0; v && typeof v === 'object' && typeof v.$ref === 'string' && i < 10; i++) {
      v = v.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((o: any, k: string) => o?.[k], doc)
    }
    return v
  }
  const ops: Operation[] = []
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [method, raw] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue
      // A GET answered with an event stream stays open by design (the site feed); its own tests cover it.
      if (method === 'get' && raw.responses?.['200']?.content?.['text/event-stream']) continue
      const content = raw.requestBody ? (deref(raw.requestBody).content ?? {}) : {}
      ops.push({
        method: method.toUpperCase(),
        template,
        params: (raw.parameters ?? []).map(deref),
        body: content['application/json']?.schema,
        contentTypes: Object.keys(content),
      })
    }
  }
  return ops.map((op) => ({ ...op, body: op.body && resolveDeep(op.body, deref) }))
}

/** The schema with every $ref replaced (depth-bounded: schemas may refer to themselves). */
function resolveDeep(schema: Schema, deref: (x: any) => any, depth = 0): Schema {
  if (depth > 8 || !schema || typeof schema !== 'object') return schema
  const s = deref(schema)
  const out: Schema = { ...s }
  if (s.properties) out.properties = Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, v]) => [k, resolveDeep(v, deref, depth + 1)]))
  if (s.items) out.items = resolveDeep(s.items, deref, depth + 1)
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[key])) out[key] = s[key].map((v: Schema) => resolveDeep(v, deref, depth + 1))
  return out
}

let unique = 0
/** A number no other call returned (names, emails and tokens the fuzz makes stay distinct). */
export const nextUnique = () => ++unique

/** A value the schema accepts, as far as a generic guess goes; ids of the tenant's own resources by field name. */
function validValue(schema: Schema | undefined, name: string, idOf: IdOf, depth = 0): unknown {
  if (!schema || depth > 6) return 'x'
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) {
      const variant = schema[key].find((v: Schema) => v.type !== 'null') ?? schema[key][0]
      return validValue(variant, name, idOf, depth + 1)
    }
  }
  if (Array.isArray(schema.allOf)) return validValue(Object.assign({}, ...schema.allOf), name, idOf, depth + 1)
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type
  switch (type) {
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)
      return Math.min(Math.max(min, 1), schema.maximum ?? Number.MAX_SAFE_INTEGER)
    }
    case 'boolean':
      return true
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => validValue(schema.items, name.replace(/s$/, ''), idOf, depth + 1))
    case 'object':
      return validObject(schema, idOf, depth + 1)
    case 'string':
      return validString(schema, name, idOf)
    default:
      return schema.properties ? validObject(schema, idOf, depth + 1) : 'x'
  }
}

export function validObject(schema: Schema, idOf: IdOf, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  const required = new Set<string>(schema.required ?? [])
  for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) {
    // Optional fields that change what else the body must say are left out of the base body.
    if (!required.has(key) && ['templateId', 'default', 'confirm', 'dropColumns', 'supersedesId'].includes(key)) continue
    out[key] = validValue(prop, key, idOf, depth)
  }
  return out
}

function validString(schema: Schema, name: string, idOf: IdOf): string {
  const n = nextUnique()
  const lower = name.toLowerCase()
  const id = idOf(name)
  if (id && (schema.format === 'uuid' || /id$/i.test(name))) return id
  const candidates: string[] = []
  if (schema.format === 'date-time' || /[a-z]At$/.test(name)) candidates.push('2030-01-02T03:04:05.000Z')
  if (schema.format === 'date') candidates.push('2030-01-02')
  if (schema.format === 'email' || lower.includes('email')) candidates.push(`fuzz${n}@example.test`)
  if (schema.format === 'uuid') candidates.push('00000000-0000-4000-8000-000000000000')
  if (schema.format === 'uri' || lower.includes('url') || lower.includes('uri')) candidates.push('http://127.0.0.1:9/fuzz')
  if (lower.includes('phone') || lower === 'to') candidates.push('+15555550100')
  if (lower.includes('password')) candidates.push(`fuzz-password-${n}-long`)
  if (/(To|Until|Before)$/.test(name)) candidates.unshift('2031-01-02T03:04:05.000Z')
  candidates.push(
    `fuzz-${n}`,
    `fuzz_${n}`,
    `fuzz${n}`,
    'a0',
    'text',
    'x',
    'http://127.0.0.1:9/fuzz',
    '+15555550100',
    '#336699',
    'A',
    '1',
    `fuzz${n}@example.test`,
  )
  candidates.push(`fuzz-${n}.example.test`, 'text/plain', '0'.repeat(64), 'customer.created')
  let pattern: RegExp | undefined
  try {
    pattern = schema.pattern ? new RegExp(schema.pattern, 'u') : undefined
  } catch {}
  const min = schema.minLength ?? 0
  const max = schema.maxLength ?? Infinity
  for (const c of candidates) {
    const v = c.length < min ? c + 'x'.repeat(min - c.length) : c
    if (v.length <= max && (!pattern || pattern.test(v))) return v
  }
  return candidates[0]!.padEnd(min, 'x')
}

/** The query parameters an operation requires, with valid-shaped values (`?a=…&b=…`), or ''. */
export function requiredQuery(op: Operation, idOf: IdOf, extra?: string): string {
  const replaced = extra?.split('=')[0]
  const params = op.params.filter((p) => p.in === 'query' && (p as { required?: boolean }).required && p.name !== replaced)
  const parts = params.map((p) => `${p.name}=${encodeURIComponent(String(validValue(p.schema, p.name, idOf)))}`)
  if (extra !== undefined) parts.push(extra)
  return parts.length ? `?${parts.join('&')}` : ''
}
