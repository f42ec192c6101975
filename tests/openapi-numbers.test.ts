import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createHarness, type Harness } from './support/harness'

// Numbers are numbers: a JSON body's numeric field given as a string ("120", "1e3", "0x10") is a
// validation error on every operation, never converted (query strings and path parameters, which
// are text by nature, still convert). Walks the published OpenAPI document: every numeric field of
// every JSON request body, at any depth, is sent once as a string inside the operation's own
// request example, and once as the number it stands for.

const doc = JSON.parse(readFileSync(join(import.meta.dir, '..', 'openapi.json'), 'utf8'))

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

type Schema = {
  $ref?: string
  type?: string | string[]
  properties?: Record<string, Schema>
  items?: Schema
  anyOf?: Schema[]
  oneOf?: Schema[]
  allOf?: Schema[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  default?: unknown
  format?: string
  examples?: unknown[]
}
const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]) : s)
const isNumeric = (s: Schema) => s.type === 'integer' || s.type === 'number'

/** Where a numeric field sits: the keys down to it (`0` for an array's first item), and its schema. */
interface Field {
  at: (string | number)[]
  schema: Schema
}

/** Every numeric field under `schema`, through objects, arrays and unions (each variant's). */
function numericFields(schema: Schema | undefined, at: (string | number)[] = [], seen = new Set<Schema>()): Field[] {
  const s = resolve(schema)
  if (!s || seen.has(s)) return []
  const inner = new Set(seen).add(s)
  if (isNumeric(s)) return [{ at, schema: s }]
  const out: Field[] = []
  for (const variant of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])]) out.push(...numericFields(variant, at, inner))
  for (const [key, property] of Object.entries(s.properties ?? {})) out.push(...numericFields(property, [...at, key], inner))
  if (s.items) out.push(...numericFields(s.items, [...at, 0], inner))
  return out
}

/** A valid number for the field: the example's when it has one, else one its bounds allow. */
function numberFor(field: Field, current: unknown): number {
  if (typeof current === 'number') return current
  const { minimum, exclusiveMinimum, maximum } = field.schema
  const n = minimum ?? (exclusiveMinimum === undefined ? 1 : exclusiveMinimum + 1)
  return maximum === undefined ? n : Math.min(n, maximum)
}

/** `body` with the value at `at` set (objects and the first array item made on the way when the example leaves them out). */
function withValue(body: unknown, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body ?? {}) as Record<string | number, unknown>
  let node = copy
  at.forEach((key, i) => {
    if (i === at.length - 1) node[key] = value
    else {
      node[key] ??= typeof at[i + 1] === 'number' ? [] : {}
      node = node[key] as Record<string | number, unknown>
    }
  })
  return copy
}
const valueAt = (body: unknown, at: (string | number)[]) => at.reduce<any>((node, key) => node?.[key], body)

interface Case {
  op: string
  method: string
  path: string
  field: string
  number: unknown
  strings: unknown[]
}

/** Path parameters as the document describes them: a UUID where it asks for one, else a plain word. */
function pathFor(path: string, parameters: { in: string; name: string; schema?: Schema }[] = []): string {
  return path.replace(/\{([^}]+)\}/g, (_, name) => {
    const p = parameters.find((x) => x.in === 'path' && x.name === name)
    return resolve(p?.schema)?.format === 'uuid' ? crypto.randomUUID() : 'example'
  })
}

const cases: Case[] = []
for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
  for (const [method, op] of Object.entries(methods)) {
    const json = op.requestBody?.content?.['application/json']
    if (!json) continue
    for (const field of numericFields(json.schema)) {
      const n = numberFor(field, valueAt(json.example, field.at))
      cases.push({
        op: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path: pathFor(path, op.parameters),
        field: field.at.join('.'),
        number: withValue(json.example, field.at, n),
        strings: [
          String(n),
          ...(Number.isInteger(n) && n >= 0 ? [`0x${n.toString(16)}`, n === 0 ? '0e0' : `${n / 10 ** String(n).length}e${String(n).length}`] : []),
        ].map((s) => withValue(json.example, field.at, s)),
      })
    }
  }
}

describe('numbers in JSON bodies are numbers', () => {
  test('the document has numeric body fields to try, in several areas', () => {
    expect(new Set(cases.map((c) => c.op.split('/')[1])).size).toBeGreaterThanOrEqual(5)
    expect(cases.map((c) => `${c.op} ${c.field}`)).toContain('POST /billing/usage events.0.value')
    expect(cases.map((c) => `${c.op} ${c.field}`)).toContain('POST /billing/check amount')
  })

  test('every numeric field of every JSON body, sent as a numeric string, is 400 validation_failed naming the field; as a number it passes validation', async () => {
    const wrong: string[] = []
    for (const c of cases) {
      for (const body of c.strings) {
        const res = await h.call(c.method, c.path, { body })
        const named = typeof res.body?.error?.message === 'string' && res.body.error.message.includes(c.field.split('.').at(-1)!)
        if (res.status !== 400 || res.body?.error?.code !== 'validation_failed' || !named)
          wrong.push(
            `${c.op} ${c.field}=${JSON.stringify(
              valueAt(
                body,
                c.field.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
              ),
            )}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`,
          )
      }
      const control = await h.call(c.method, c.path, { body: c.number })
      if (control.body?.error?.code === 'validation_failed' && String(control.body.error.message).includes(c.field.split('.').at(-1)!))
        wrong.push(`${c.op} ${c.field} as a number: ${JSON.stringify(control.body).slice(0, 160)}`)
    }
    expect(wrong).toEqual([])
  }, 120_000)
})
