/** Small utilities: paths, timing, formatting, statistics, synthetic text. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { type SQL, sql } from 'drizzle-orm'

export const ROOT = resolve(import.meta.dir, '..', '..')
export const LOOPBACK = '127.0.0.1'

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function freePort(): number {
  const probe = Bun.serve({ hostname: LOOPBACK, port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The value below which a share `p` (0–1) of the samples fall (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

// Made-up words for synthetic texts, most frequent first: word i of any vocabulary size is the same.
const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa qu ri sho tan bel dor fin gal hum jor'.split(' ')
export const vocabulary = (size: number): string[] =>
  Array.from({ length: size }, (_, i) => {
    let word = ''
    for (let x = i + SYLLABLES.length; x > 0; x = Math.floor(x / SYLLABLES.length)) word += SYLLABLES[x % SYLLABLES.length]
    return word
  })

/**
 * A word's index (0 = most frequent) drawn Zipf-like, as words of real text are: P(index i) ∝ about
 * 1/(i + 1). `zipfWordSql` draws the same way in SQL.
 */
export const zipfIndex = (size: number, random: () => number = Math.random) => Math.min(size - 1, Math.floor(Math.exp(random() * Math.log(size))) - 1)

/**
 * SQL for one word of `vocabulary(size)` drawn like `zipfIndex`, spelled from its syllables (an
 * array subscript into a text[] of 20,000 words walks the array: 50× slower). `row` must be a
 * column of the row being generated, so that PostgreSQL draws anew for each row.
 */
export function zipfWordSql(size: number, row: SQL): SQL {
  const n = SYLLABLES.length
  if (size + n > n ** 4) throw new Error(`zipfWordSql: at most ${n ** 4 - n} words`)
  const syllable = (div: number) => sql.raw(`('{${SYLLABLES.join(',')}}'::text[])[1 + x / ${div} % ${n}]`)
  return sql`(select ${syllable(1)} || ${syllable(n)} || case when x >= ${sql.raw(String(n ** 2))} then ${syllable(n ** 2)} else '' end
      || case when x >= ${sql.raw(String(n ** 3))} then ${syllable(n ** 3)} else '' end
    from (select least(${sql.raw(String(size))}, floor(exp(random() * ln(${sql.raw(String(size))})) + 0 * ${row})::int) + ${sql.raw(String(n - 1))} as x) w)`
}

/** Runs `fn` `count` times (after a few warm-up runs) or until `budgetSec` is spent, at least 10; milliseconds each. */
export async function timeRequests(fn: () => Promise<void>, count: number, budgetSec: number): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn()
  const times: number[] = []
  const deadline = performance.now() + budgetSec * 1000
  while (times.length < count && (times.length < 10 || performance.now() < deadline)) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return times
}

/** Writes `data` as JSON to bench/results/<name>.json (git-ignored) and returns the path. */
export function saveResult(name: string, data: unknown): string {
  const dir = join(ROOT, 'bench', 'results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}.json`)
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
  return file
}
