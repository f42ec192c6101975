/**
 * P20: the API reference at /openapi in Chromium, as a person opening it sees it. A real server
 * (`bun src/index.ts`, embedded PGlite), Debian's Chromium through playwright-core; each round a
 * fresh browser context (empty cache) opens the page, then reloads it (cached assets). Measured:
 * first contentful paint (the browser's own paint timing), the moment the first operation is
 * listed (the document fetched and parsed), and the bytes the page transferred.
 * Target (issue 45): first contentful paint ≤ 1 s on a cold cache.
 *
 *   npx bun bench/docs-paint.ts [--rounds=5]
 */
import { chromium, type Page } from 'playwright-core'
import { benchFlags, benchMain, type BenchCommand, fmt, median, numberFlags, startServer } from './support'

export const TARGET_FCP_MS = 1000
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

interface Visit {
  fcpMs: number
  operationsMs: number
  transferKb: number
}

export interface DocsPaintResult {
  pass: boolean
  failed?: boolean
  rounds: number
  cold: Visit
  warm: Visit
}

/** The page's paint timing and transfer sizes once its first operation is on screen. */
async function measure(page: Page): Promise<Visit> {
  await page.locator('.opblock').first().waitFor({ timeout: 60_000 })
  return page.evaluate(() => {
    const operationsMs = performance.now()
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')] as PerformanceResourceTiming[]
    const bytes = entries.reduce((sum, e) => sum + e.transferSize, 0)
    return { fcpMs: fcp?.startTime ?? Number.NaN, operationsMs, transferKb: bytes / 1024 }
  })
}

const medianVisit = (visits: Visit[]): Visit => ({
  fcpMs: median(visits.map((v) => v.fcpMs)),
  operationsMs: median(visits.map((v) => v.operationsMs)),
  transferKb: median(visits.map((v) => v.transferKb)),
})

export async function benchDocsPaint(rounds = 5): Promise<DocsPaintResult> {
  const server = await startServer({ label: 'docs-paint' })
  // --no-sandbox: benches may run as root, where Chromium's sandbox cannot start.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] })
  const cold: Visit[] = []
  const warm: Visit[] = []
  try {
    for (let i = 0; i < rounds; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      const page = await context.newPage()
      await page.goto(`${server.url}/openapi`)
      cold.push(await measure(page))
      await page.reload()
      warm.push(await measure(page))
      await context.close()
    }
  } finally {
    await browser.close()
    await server.stop()
  }
  const result = { rounds, cold: medianVisit(cold), warm: medianVisit(warm), pass: false }
  result.pass = result.cold.fcpMs <= TARGET_FCP_MS
  return result
}

export function docsPaintTable(r: DocsPaintResult): string {
  const row = (name: string, v: Visit) => `| ${name} | ${fmt(v.fcpMs)} ms | ${fmt(v.operationsMs)} ms | ${fmt(v.transferKb)} KB |`
  return [
    `median of ${r.rounds} rounds; target: first contentful paint ≤ ${fmt(TARGET_FCP_MS)} ms on a cold cache`,
    '',
    '| visit | first contentful paint | first operation listed | transferred |',
    '|---|---:|---:|---:|',
    row('cold cache', r.cold),
    row('reload', r.warm),
  ].join('\n')
}

export const command: BenchCommand<DocsPaintResult> = {
  name: 'docs-paint',
  run: (argv) => benchDocsPaint(numberFlags(benchFlags(argv), {} as { rounds?: number }, { rounds: 'rounds' }).rounds),
  table: docsPaintTable,
}

if (import.meta.main) await benchMain(command)
