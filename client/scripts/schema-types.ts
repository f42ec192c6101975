/**
 * Turns the OpenAPI document into the client's types (client/schema/, a file per area): one type
 * per component schema, and `Api`, the route tree the way Eden treaty calls it at run time
 * (`api.chat.conversations({ id }).messages.post(body, options)`). The client then needs no
 * server code: the document is the contract, and `npm run openapi` writes both.
 */

type Schema = {
  $ref?: string
  type?: string | string[]
  const?: unknown
  enum?: unknown[]
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  items?: Schema
  properties?: Record<string, Schema>
  required?: string[]
  additionalProperties?: boolean | Schema
  patternProperties?: Record<string, Schema>
  description?: string
  format?: string
}
type Parameter = { $ref?: string; name: string; in: string; required?: boolean; schema?: Schema; description?: string }
type Operation = {
  operationId?: string
  summary?: string
  description?: string
  parameters?: Parameter[]
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> }
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>
}
export interface Document {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema>; parameters?: Record<string, Parameter> }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options']

const HEADER = '// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.'

/**
 * The files of client/schema/, by name: one per area (the OpenAPI tag), holding the types of the
 * components only that area uses and the routes under the top-level path segments it owns, plus
 * `shared.ts` for components several areas use, and `index.ts` with `Api`, the whole route tree.
 */
export function schemaFiles(doc: Document): Record<string, string> {
  const componentArea = componentAreas(doc)
  const chunks = new Map<string, string[]>()
  const add = (area: string, chunk: string) => chunks.set(area, [...(chunks.get(area) ?? []), chunk])
  for (const [component, schema] of Object.entries(doc.components.schemas)) {
    const body = type(schema, '')
    const name = typeName(component)
    add(
      componentArea.get(component)!,
      doc_(schema.description, '') + (isPlainObject(schema) && body.startsWith('{') ? `export interface ${name} ${body}` : `export type ${name} = ${body}`),
    )
  }
  const segments: [segment: string, routes: string][] = []
  const segmentArea = segmentAreas(doc)
  for (const [segment, child] of tree(doc).children) {
    const routes = `${pascal(segment)}Routes`
    segments.push([segment, routes])
    add(segmentArea.get(segment)!, `/** The routes under /${segment}. */\nexport interface ${routes} ${node(child, doc, '')}`)
  }

  // Each file imports what it names of the others (type-only, so cycles are harmless).
  const declaredIn = new Map<string, string>()
  for (const [area, list] of chunks) for (const chunk of list) for (const m of chunk.matchAll(/^export (?:interface|type) (\w+)/gm)) declaredIn.set(m[1]!, area)
  const files: Record<string, string> = {}
  for (const [area, list] of [...chunks].sort(([a], [b]) => a.localeCompare(b))) {
    const body = list.join('\n\n')
    const used = new Set(bare(body).match(/\b[A-Z]\w*\b/g) ?? [])
    const imports = new Map<string, string[]>()
    for (const name of [...used].sort()) {
      const from = declaredIn.get(name)
      if (from && from !== area) imports.set(from, [...(imports.get(from) ?? []), name])
    }
    const lines = [HEADER]
    const treaty = ['RequestOptions', 'Result'].filter((n) => used.has(n))
    if (treaty.length) lines.push(`import type { ${treaty.join(', ')} } from '../treaty'`)
    for (const [from, names] of [...imports].sort(([a], [b]) => a.localeCompare(b))) lines.push(`import type { ${names.join(', ')} } from './${from}'`)
    files[`${area}.ts`] = `${lines.join('\n')}\n\n${body}\n`
  }
  const areas = Object.keys(files).map((f) => f.slice(0, -3))
  files['index.ts'] = `${[
    HEADER,
    ...areas.map((area) => `export type * from './${area}'`),
    ...areas
      .map((area) => [area, segments.filter(([s]) => segmentArea.get(s) === area).map(([, r]) => r)] as const)
      .filter(([, r]) => r.length)
      .map(([area, r]) => `import type { ${r.join(', ')} } from './${area}'`),
    '',
    '/** Every route of the API as Eden treaty calls it: path segments are properties, `{param}` segments are calls. */',
    `export interface Api {\n${segments.map(([segment, routes]) => `  ${key(segment)}: ${routes}`).join('\n')}\n}`,
  ].join('\n')}\n`
  return files
}

/** A component's area: the tag of the operations that use it (directly or through other components), or `shared` when several do. */
function componentAreas(doc: Document & { webhooks?: Record<string, Record<string, Operation & { tags?: string[] }>> }): Map<string, string> {
  const refs = (node: unknown, found = new Set<string>()): Set<string> => {
    if (Array.isArray(node)) for (const n of node) refs(n, found)
    else if (node && typeof node === 'object') {
      const ref = (node as Schema).$ref
      if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) found.add(ref.split('/').pop()!)
      for (const n of Object.values(node)) refs(n, found)
    }
    return found
  }
  const users = new Map<string, Set<string>>(Object.keys(doc.components.schemas).map((c) => [c, new Set<string>()]))
  for (const section of [doc.paths, doc.webhooks ?? {}]) {
    for (const ops of Object.values(section))
      for (const op of Object.values(ops) as (Operation & { tags?: string[] })[]) for (const c of refs(op)) users.get(c)!.add(op.tags?.[0] ?? 'shared')
  }
  for (let changed = true; changed; ) {
    changed = false
    for (const [component, schema] of Object.entries(doc.components.schemas)) {
      for (const inner of refs(schema)) {
        const before = users.get(inner)!.size
        for (const tag of users.get(component)!) users.get(inner)!.add(tag)
        changed ||= users.get(inner)!.size !== before
      }
    }
  }
  return new Map([...users].map(([c, tags]) => [c, tags.size === 1 ? [...tags][0]! : 'shared']))
}

/** A top-level path segment's area: the tag of its first operation. */
function segmentAreas(doc: Document): Map<string, string> {
  const areas = new Map<string, string>()
  for (const [path, ops] of Object.entries(doc.paths)) {
    const segment = path.split('/').filter(Boolean)[0]!
    const tag = (Object.values(ops)[0] as { tags?: string[] } | undefined)?.tags?.[0] ?? 'shared'
    if (!areas.has(segment)) areas.set(segment, tag)
  }
  return areas
}

/** Type text without its comments and string literals, for finding the type names it uses. */
function bare(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/"(?:[^"\\]|\\.)*"/g, '""')
}

function pascal(segment: string): string {
  return segment
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
}

interface Node {
  children: Map<string, Node>
  param?: { names: string[]; node: Node }
  methods: Map<string, Operation>
}

function tree(doc: Document): Node {
  const root: Node = { children: new Map(), methods: new Map() }
  for (const [path, ops] of Object.entries(doc.paths)) {
    let at = root
    for (const segment of path.split('/').filter(Boolean)) {
      const param = /^\{(.+)\}$/.exec(segment)?.[1]
      if (param) {
        at.param ??= { names: [], node: { children: new Map(), methods: new Map() } }
        if (!at.param.names.includes(param)) at.param.names.push(param)
        at = at.param.node
      } else {
        if (!at.children.has(segment)) at.children.set(segment, { children: new Map(), methods: new Map() })
        at = at.children.get(segment)!
      }
    }
    for (const [method, op] of Object.entries(ops)) if (METHODS.includes(method)) at.methods.set(method, op)
  }
  return root
}

function node(n: Node, doc: Document, indent: string): string {
  const inner = `${indent}  `
  const members: string[] = []
  for (const [method, op] of n.methods) members.push(`${doc_(op.summary ?? op.operationId, inner)}${inner}${method}${signature(method, op, doc)}`)
  for (const [segment, child] of n.children) members.push(`${inner}${key(segment)}: ${node(child, doc, inner)}`)
  const object = `{\n${members.join('\n')}\n${indent}}`
  if (!n.param) return object
  // A segment that is both a parameter and a parent of literal segments is a callable object.
  const params = n.param.names.map((name) => `${key(name)}: string | number`).join('; ')
  const call = `((params: { ${params} }) => ${node(n.param.node, doc, indent)})`
  return members.length ? `${call} & ${object}` : call
}

function signature(method: string, op: Operation, doc: Document): string {
  const parameters = (op.parameters ?? []).map((p) => (p.$ref ? doc.components.parameters![p.$ref.split('/').pop()!]! : p))
  const query = parameters.filter((p) => p.in === 'query')
  const queryType = query.length ? `{ ${query.map((p) => `${key(p.name)}${p.required ? '' : '?'}: ${type(p.schema ?? {}, '')}`).join('; ')} }` : 'never'
  const queryRequired = query.some((p) => p.required)
  const options = queryRequired ? `options: RequestOptions<${queryType}> & { query: ${queryType} }` : `options?: RequestOptions<${queryType}>`
  const result = `Promise<Result<{ ${responses(op)} }>>`
  if (method === 'get' || method === 'head') return `(${options}): ${result}`
  const body = op.requestBody?.content?.['application/json']?.schema
  const bodyType = body ? type(body, '') : 'undefined'
  const bodyRequired = !!body && !!op.requestBody?.required
  // An optional body before required options is a required `T | undefined`.
  const bodyParam = bodyRequired
    ? `body: ${bodyType}`
    : queryRequired
      ? body
        ? `body: ${wrap(bodyType)} | undefined`
        : 'body: undefined'
      : `body?: ${bodyType}`
  return `(${bodyParam}, ${options}): ${result}`
}

function responses(op: Operation): string {
  return Object.entries(op.responses ?? {})
    .map(([status, response]) => {
      const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? []
      let body = 'void'
      if (mediaType === 'text/event-stream') body = `AsyncGenerator<${type(media?.schema ?? {}, '')}>`
      else if (mediaType?.includes('json')) body = type(media?.schema ?? {}, '')
      else if (mediaType) body = 'string'
      return `${status}: ${body}`
    })
    .join('; ')
}

function type(schema: Schema, indent: string): string {
  if (schema.$ref) return typeName(schema.$ref.split('/').pop()!)
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
  const union = schema.anyOf ?? schema.oneOf
  if (union) {
    // Listed strings beside any string (an open list of codes): keep the listed ones for completion.
    const open = union.some((s) => s.type === 'string' && Object.keys(s).length === 1) && union.some((s) => s.enum)
    return union.map((s) => (open && s.type === 'string' && !s.enum ? '(string & {})' : wrap(type(s, indent)))).join(' | ')
  }
  if (schema.allOf) return schema.allOf.map((s) => wrap(type(s, indent))).join(' & ')
  if (Array.isArray(schema.type)) return schema.type.map((t) => type({ ...schema, type: t }, indent)).join(' | ')
  switch (schema.type) {
    case 'string':
      return 'string'
    case 'integer':
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return `${wrap(type(schema.items ?? {}, indent))}[]`
    case 'object':
      return object(schema, indent)
    default:
      return schema.properties ? object(schema, indent) : 'unknown'
  }
}

function object(schema: Schema, indent: string): string {
  const inner = `${indent}  `
  const required = new Set(schema.required ?? [])
  const members = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${doc_(property.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${type(property, inner)}`,
  )
  const open = schema.additionalProperties ?? Object.values(schema.patternProperties ?? {})[0] ?? (schema.properties ? undefined : true)
  if (open) members.push(`${inner}[key: string]: ${open === true ? 'unknown' : type(open, inner)}`)
  return members.length ? `{\n${members.join('\n')}\n${indent}}` : 'Record<string, never>'
}

/** A component's type name; `Error` would shadow the global Error class. */
function typeName(component: string): string {
  return component === 'Error' ? 'ErrorBody' : component
}

function isPlainObject(schema: Schema): boolean {
  return (schema.type === 'object' || (!schema.type && !!schema.properties)) && !schema.anyOf && !schema.oneOf && !schema.allOf
}

/** Parenthesises a union or intersection (at the top level of `text`) before it gets `[]` or joins another. */
function wrap(text: string): string {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
    } else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i + 2) + 1
    else if ('{[(<'.includes(c)) depth++
    else if ('}])>'.includes(c)) depth--
    else if (depth === 0 && (c === '|' || c === '&')) return `(${text})`
  }
  return text
}

function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
}

function doc_(text: string | undefined, indent: string): string {
  if (!text) return ''
  return `${indent}/** ${text.replace(/\*\//g, '*\\/').replace(/\n/g, `\n${indent} * `)} */\n`
}
