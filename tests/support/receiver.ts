/** How a local HTTP endpoint answers its next request to a path. */
export type Answer = 'ok' | 'fail' | 'slow' | 'redirect' | 'down' | 'big'

export interface Received {
  path: string
  headers: Record<string, string>
  body: string
  at: number
}

/**
 * A local HTTP server that records what reaches it and answers each path from a plan
 * (`plan.set('/x', ['fail', 'fail'])`: two failures, then `ok`). `slow` waits `slowMs` first;
 * `big` puts 2 MiB before the keyword.
 */
export function startReceiver(options: { slowMs?: number; keyword?: string } = {}) {
  const received: Received[] = []
  const plan = new Map<string, Answer[]>()
  const server = Bun.serve({
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname
      received.push({ path, headers: Object.fromEntries(req.headers), body: await req.text(), at: Date.now() })
      const answer = plan.get(path)?.shift() ?? 'ok'
      if (answer === 'slow') await Bun.sleep(options.slowMs ?? 2000)
      if (answer === 'fail') return new Response('broken', { status: 500 })
      if (answer === 'down') return new Response('unavailable', { status: 503 })
      if (answer === 'big') return new Response(`${'x'.repeat(2 * 1024 * 1024)}${options.keyword ?? 'fine'}`)
      if (answer === 'redirect') return new Response(null, { status: 302, headers: { location: '/elsewhere' } })
      return new Response(`<html>${options.keyword ?? 'fine'}</html>`, { headers: { 'content-type': 'text/html' } })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    plan,
    to: (path: string) => received.filter((r) => r.path === path),
    close: () => server.stop(true),
  }
}
