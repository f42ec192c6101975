import type { Harness } from './harness'

/** The value of one sample (`name{labels}` exactly as exposed, labels in their order), or undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** GET /metrics with the scraper's token: the exposition text (throws unless it answers 200). */
export async function scrapeText(h: Pick<Harness, 'app'>, token: string): Promise<string> {
  const res = await h.app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${token}` } }))
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`)
  return res.text()
}
