/**
 * Moves every schema that carries a `title` into `components.schemas` and puts a `$ref` in its
 * place, so the document names its types once (generators turn them into named types) instead of
 * inlining them at each use. A nullable use of a named schema becomes `anyOf: [$ref, null]`.
 * Two different schemas under one title are a mistake in the models and throw, naming it.
 */
export function hoistNamedSchemas(doc: { paths?: unknown; webhooks?: unknown; components?: { schemas?: Record<string, unknown> } }): void {
  const components = (doc.components ??= {})
  const schemas = (components.schemas ??= {})
  const seen = new Map<string, string>()

  const name = (title: string) =>
    /^[A-Za-z0-9._-]+$/.test(title)
      ? title
      : title
          .split(/[^A-Za-z0-9]+/)
          .filter(Boolean)
          .map((w) => w[0]!.toUpperCase() + w.slice(1))
          .join('')

  const register = (schema: Record<string, unknown>): { $ref: string } => {
    const key = name(schema.title as string)
    const text = JSON.stringify(schema)
    const earlier = seen.get(key)
    if (earlier !== undefined && earlier !== text)
      throw new Error(`Two different schemas are titled ${JSON.stringify(schema.title)}; give one of them its own title`)
    seen.set(key, text)
    schemas[key] = schema
    return { $ref: `#/components/schemas/${key}` }
  }

  /** `names` is true for a map of property names to schemas, where any key is a schema. */
  const visit = (node: unknown, names = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => visit(item))
    if (!node || typeof node !== 'object') return node
    const record = node as Record<string, unknown>
    for (const [key, value] of Object.entries(record)) {
      if (names || !VALUE_KEYS.has(key)) record[key] = visit(value, !names && (key === 'properties' || key === 'patternProperties'))
    }
    if (names) return record
    if (typeof record.title !== 'string' || !SCHEMA_KEYS.some((k) => k in record)) return record
    const types = record.type
    if (Array.isArray(types) && types.includes('null') && types.length > 1) {
      const rest = types.filter((t) => t !== 'null')
      return { anyOf: [register({ ...record, type: rest.length === 1 ? rest[0] : rest }), { type: 'null' }] }
    }
    return register(record)
  }

  for (const section of ['paths', 'webhooks'] as const) if (doc[section]) doc[section] = visit(doc[section])
}

/** Keys whose values are data, not schemas: a `title` in an example is not a type name. */
const VALUE_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum'])
const SCHEMA_KEYS = ['type', 'anyOf', 'oneOf', 'allOf', 'properties', '$ref']
