import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { MODULES } from '../src/modules'

// The documentation kept true to the code: one page per area, no route that does not exist, no
// broken link. Route descriptions live in openapi.json; pages list routes and link to it.

const ROOT = join(import.meta.dir, '..')
const PAGES = ['README.md', ...[...new Glob('docs/**/*.md').scanSync(ROOT)].sort()]
const text = (page: string) => readFileSync(join(ROOT, page), 'utf8')

/** `GET /a/{}/b` for `GET /a/{id}/b` and `GET /a/:id/b`: parameter names do not matter. */
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]*\}|:[A-Za-z_]\w*/g, '{}')}`

/** The operations of openapi.json; a page may write a parameter's value (`PUT /settings/auth-methods/password`). */
const DOCUMENTED = Object.entries(JSON.parse(text('openapi.json')).paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
  Object.keys(operations).map((method) => routeKey(method, path).split('/')),
)
const documented = (route: string) => {
  const segments = route.split('/')
  return DOCUMENTED.some((known) => known.length === segments.length && known.every((segment, i) => segment === segments[i] || segment === '{}'))
}

/** Every `METHOD /path` a page names, in prose, code spans or code blocks (the query string and trailing punctuation cut off). */
export function namedRoutes(markdown: string): { line: number; route: string }[] {
  return markdown.split('\n').flatMap((content, i) =>
    [...content.matchAll(/\b(GET|POST|PUT|PATCH|DELETE)\s+(\/[^\s`'"<>()[\]|,;?#]*)/g)].map((m) => ({
      line: i + 1,
      route: routeKey(m[1]!, m[2]!.replace(/[.:]+$/, '')),
    })),
  )
}

/** The page's text without fenced code blocks and code spans, where `[x](y)` is code, not a link. */
const prose = (markdown: string) =>
  markdown
    .split(/^```.*$/m)
    .filter((_, i) => i % 2 === 0)
    .join('\n')
    .replace(/`[^`\n]*`/g, '')

/** GitHub's anchor for each heading: lowercased, punctuation dropped, spaces as dashes, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    found.add(n ? `${slug}-${n}` : slug)
  }
  return found
}

/** The relative links of a page that lead nowhere: a missing file, or a missing heading in a markdown file. */
export function brokenLinks(page: string, markdown: string, read: (page: string) => string = text): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].flatMap(([, href]) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href!)) return []
    const [file, anchor] = href!.split('#') as [string, string | undefined]
    const target = file ? relative(ROOT, join(ROOT, dirname(page), decodeURIComponent(file))) : page
    if (target.startsWith('..') || !existsSync(join(ROOT, target))) return [`${page}: ${href} (no file ${target})`]
    if (anchor === undefined || !target.endsWith('.md') || statSync(join(ROOT, target)).isDirectory()) return []
    return anchors(read(target)).has(anchor) ? [] : [`${page}: ${href} (no heading #${anchor} in ${target})`]
  })
}

test('every module in MODULES has its page in docs/areas/', () => {
  expect(MODULES.map((m) => `docs/areas/${m.name}.md`).filter((page) => !existsSync(join(ROOT, page)))).toEqual([])
})

test('every route a page names is in openapi.json', () => {
  const unknown = PAGES.flatMap((page) => namedRoutes(text(page)).flatMap(({ line, route }) => (documented(route) ? [] : [`${page}:${line}: ${route}`])))
  expect(unknown).toEqual([])
})

test('every relative link in README.md and docs/ leads to a file (and heading) that exists', () => {
  expect(PAGES.flatMap((page) => brokenLinks(page, text(page)))).toEqual([])
})

test('the route and link checks see what is wrong', () => {
  expect(namedRoutes('`GET /team/members/{id}`, POST /team/members/:id, DELETE /team/members/{memberId}.').map((r) => r.route)).toEqual([
    'GET /team/members/{}',
    'POST /team/members/{}',
    'DELETE /team/members/{}',
  ])
  expect(documented('DELETE /team/members/{}')).toBe(true)
  expect(documented('POST /team/members/{}')).toBe(false)
  expect(documented('PUT /settings/auth-methods/password')).toBe(true)
  expect(documented('PUT /settings/auth-methods/password/x')).toBe(false)
  expect(documented('PUT /settings/auth-methodz/password')).toBe(false)
  const page = 'docs/areas/team.md'
  expect(
    brokenLinks(page, '[ok](registry.md#routes) [file](nowhere.md) [heading](registry.md#nowhere) `[code](nowhere.md)` [web](https://example.com/x)'),
  ).toEqual([`${page}: nowhere.md (no file docs/areas/nowhere.md)`, `${page}: registry.md#nowhere (no heading #nowhere in docs/areas/registry.md)`])
})

test('the README tests with the command CI runs', () => {
  expect(text('.ci/run')).toContain('npm test')
  expect(text('README.md')).toContain('npm install && npm test')
})
