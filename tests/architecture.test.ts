import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

// The shape of src/modules as code, checked: no module folder depends on itself through others.

const MODULES = join(import.meta.dir, '..', 'src', 'modules')
const IMPORT = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms

/**
 * module → the modules it imports (type-only imports included: they tie the code together as
 * much), with one file that does it. An import of another module's schema.ts is left out: that is
 * a table for a foreign key (an organization's team refers to the organization), which docs/architecture.md
 * allows, and it carries no behaviour.
 */
function moduleGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>()
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    const from = file.split('/')[0]!
    const edges = graph.get(from) ?? new Map<string, string>()
    graph.set(from, edges)
    for (const [, spec] of readFileSync(join(MODULES, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(MODULES, dirname(file), spec!)))
      const to = target.split('/')[0]!
      if (target.startsWith('..') || to === from || target === `${to}/schema`) continue
      if (!edges.has(to)) edges.set(to, `${file} → ${target}`)
    }
  }
  return graph
}

/** Every cycle's modules (strongly connected components larger than one), with the imports that close it. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const found: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      component.push(w)
      if (w === v) break
    }
    if (component.length > 1) found.push(component.flatMap((a) => component.filter((b) => graph.get(a)?.has(b)).map((b) => graph.get(a)!.get(b)!)))
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

test('no import cycle runs between module folders', () => {
  expect(cycles(moduleGraph())).toEqual([])
})

test('the cycle check sees a cycle when there is one', () => {
  const graph = new Map([
    ['a', new Map([['b', 'a/service.ts → b/service']])],
    ['b', new Map([['c', 'b/service.ts → c/service']])],
    ['c', new Map([['a', 'c/service.ts → a/service']])],
    ['d', new Map([['a', 'd/service.ts → a/service']])],
  ])
  expect(cycles(graph).map((c) => c.sort())).toEqual([['a/service.ts → b/service', 'b/service.ts → c/service', 'c/service.ts → a/service']])
  expect(moduleGraph().get('notifications')?.has('messaging')).toBe(true)
})

/** The files of a module that other modules may import: its manifest, its services, its tables (for foreign keys), its events, its HTTP shapes and its read model. */
const PUBLIC_FACE = /^[a-z_]+\/(index|service|schema|events|model|directory)$/

/** Every import of another module's file that is not part of its public face: `file → target`. */
function privateImports(): string[] {
  const found: string[] = []
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    const from = file.split('/')[0]!
    for (const [, spec] of readFileSync(join(MODULES, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(MODULES, dirname(file), spec!)))
      const to = target.split('/')[0]!
      if (target.startsWith('..') || to === from || !target.includes('/')) continue
      if (!PUBLIC_FACE.test(target)) found.push(`${file} → ${target}`)
    }
  }
  return found
}

test("no module imports another module's private files", () => {
  expect(privateImports()).toEqual([])
})

/** The module folders under src/modules. */
const AREAS = [...new Glob('*/index.ts').scanSync(MODULES)].map((f) => f.split('/')[0]!).sort()

/** `persona_memory` → `PersonaMemoryService`: the class of an area's service.ts and its `Services` entry. */
const serviceClass = (area: string) =>
  `${area
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')}Service`

/** The files every area has (docs/architecture.md, "Adding an area"); routes are `routes.ts` or `routes/index.ts`. */
const TEMPLATE = ['index.ts', 'schema.ts', 'errors.ts', 'model.ts', 'service.ts', 'routes'] as const

/** Areas without one of the template's files, each with why; kept as short as it can be. */
const TEMPLATE_EXEMPTIONS: Record<string, Partial<Record<(typeof TEMPLATE)[number], string>>> = {
  console: { 'schema.ts': 'no tables: it serves the built web console', 'model.ts': 'no JSON shapes: it answers an HTML page and static assets' },
  overview: { 'schema.ts': 'no tables: it reads the other areas', 'errors.ts': "it answers only the platform's codes" },
}

const has = (area: string, file: (typeof TEMPLATE)[number]) =>
  file === 'routes'
    ? existsSync(join(MODULES, area, 'routes.ts')) || existsSync(join(MODULES, area, 'routes', 'index.ts'))
    : existsSync(join(MODULES, area, file))

test('every area has the files of the module template', () => {
  const missing = AREAS.flatMap((area) => TEMPLATE.filter((file) => !has(area, file) && !TEMPLATE_EXEMPTIONS[area]?.[file]).map((file) => `${area}/${file}`))
  expect(missing).toEqual([])
})

test('every exemption from the template is still needed', () => {
  const needless = Object.entries(TEMPLATE_EXEMPTIONS).flatMap(([area, files]) =>
    Object.keys(files)
      .filter((file) => has(area, file as (typeof TEMPLATE)[number]))
      .map((file) => `${area}/${file}`),
  )
  expect(needless).toEqual([])
})

test("every area's service.ts exports its <Area>Service class, and its Services entry is that class", () => {
  const wrong: string[] = []
  for (const area of AREAS) {
    const expected = serviceClass(area)
    if (
      existsSync(join(MODULES, area, 'service.ts')) &&
      !new RegExp(`^export class ${expected}\\b`, 'm').test(readFileSync(join(MODULES, area, 'service.ts'), 'utf8'))
    )
      wrong.push(`${area}/service.ts has no class ${expected}`)
    const entry = readFileSync(join(MODULES, area, 'index.ts'), 'utf8').match(/interface Services \{\s*(\w+): ([^\n]+)\n\s*\}/)
    if (entry && (entry[1] !== area || entry[2]!.trim() !== expected)) wrong.push(`${area}/index.ts declares Services entry ${entry[1]}: ${entry[2]}`)
  }
  expect(wrong).toEqual([])
})

test("app.ts imports no module's internals: only src/modules/index.ts and module.ts", () => {
  const app = join(MODULES, '..', 'app.ts')
  const targets = [...readFileSync(app, 'utf8').matchAll(IMPORT)]
    .map(([, spec]) => relative(MODULES, normalize(join(dirname(app), spec!))))
    .filter((t) => !t.startsWith('..'))
  expect(targets.filter((t) => t !== '' && t !== 'index' && t !== 'module')).toEqual([])
})

test('modules subscribe to events only through their subscriptions.ts, listed in their manifest', () => {
  const inline: string[] = []
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    if (/\b(bus|events)\.(on|onEach|afterCommit)\(/.test(readFileSync(join(MODULES, file), 'utf8'))) inline.push(file)
  }
  expect(inline).toEqual([])
  for (const area of AREAS) {
    if (!existsSync(join(MODULES, area, 'subscriptions.ts'))) continue
    expect(readFileSync(join(MODULES, area, 'index.ts'), 'utf8')).toMatch(/\n\s+subscriptions: [A-Z_]+_SUBSCRIPTIONS,/)
  }
})

/** Every import of another area's schema.ts from a file that is not a schema.ts: `file → target`. */
function foreignTableReads(): string[] {
  const found: string[] = []
  for (const file of new Glob('*/**/*.{ts,tsx}').scanSync(MODULES)) {
    const from = file.split('/')[0]!
    if (file === `${from}/schema.ts`) continue
    for (const [, spec] of readFileSync(join(MODULES, file), 'utf8').matchAll(IMPORT)) {
      const target = relative(MODULES, normalize(join(MODULES, dirname(file), spec!)))
      if (!target.startsWith('..') && target.split('/')[0] !== from && target.endsWith('/schema')) found.push(`${file} → ${target}`)
    }
  }
  return found.sort()
}

test("only a schema.ts imports another area's schema.ts (for a foreign key); other files ask that area's service or its read model (customer/directory.ts, auth/directory.ts)", () => {
  expect(foreignTableReads()).toEqual([])
})
