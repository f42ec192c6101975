/** What the phases of one database's fuzz share: the app, the current phase, its tallies and findings, and `send`. */
import type { Backend } from '../support'
import type { FuzzApp } from './app'
import type { Rng } from './values'

const REQUEST_TIMEOUT_MS = 30_000

type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'timeout'
export interface Tally {
  requests: number
  classes: Record<StatusClass, number>
  /** 4xx answers whose body is not `{ error: { code, message } }`. */
  notErrorShape: number
}
interface Example {
  actor: string
  method: string
  path: string
  body?: string
  status: number
  response: string
  log?: string
}
/** One distinct 5xx: status, operation, and the server's error message. */
export interface Finding {
  key: string
  count: number
  examples: Example[]
}
export interface Actor {
  name: string
  token?: string
  headers?: Record<string, string>
}
interface Reply {
  status: number
  text: string
  json: any
}
/** A request as `send` counts it: `template` names the operation, `path` is what was sent. */
interface Sent {
  method: string
  path: string
  template: string
  actor: Actor
  body?: string
}

const emptyTally = (): Tally => ({ requests: 0, classes: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, timeout: 0 }, notErrorShape: 0 })

export class FuzzSession {
  /** The phase requests are counted in; requests in 'setup' are not counted. */
  phase = 'setup'
  readonly phases: Record<string, Tally> = {}
  readonly findings = new Map<string, Finding>()
  readonly notErrorShape: Record<string, { count: number; example: string }> = {}
  readonly answered2xx = new Set<string>()

  constructor(
    readonly backend: Backend,
    readonly rng: Rng,
    readonly log: (line: string) => void,
    private readonly server: FuzzApp,
  ) {}

  /** One request; counted in the current phase (setup and health checks apart). */
  async send(method: string, path: string, actor: Actor, body?: string, extra: Record<string, string> = {}, template = path): Promise<Reply> {
    const headers: Record<string, string> = { ...actor.headers, ...extra }
    if (actor.token) headers.authorization ??= `Bearer ${actor.token}`
    if (body !== undefined) headers['content-type'] ??= 'application/json'
    let status = 0
    let text = ''
    let requestId = null as string | null
    let request: Request
    try {
      request = new Request(`http://localhost${path}`, { method, headers, body })
    } catch (err) {
      // A request the Fetch API itself refuses to build never reaches the app: not counted.
      return { status: 0, text: String(err), json: null }
    }
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), REQUEST_TIMEOUT_MS)))
    try {
      const answered = await Promise.race([
        (async () => {
          const res = await this.server.app.handle(request)
          requestId = res.headers.get('x-request-id')
          return { status: res.status, text: await res.text() }
        })(),
        timeout,
      ])
      if (answered === 'timeout') status = -1
      else ({ status, text } = answered)
    } finally {
      clearTimeout(timer)
    }
    let json: any = null
    if ((this.phase === 'setup' || text.length < 200_000) && /^[{[]/.test(text)) {
      try {
        json = JSON.parse(text)
      } catch {}
    }
    const reply = { status, text, json }
    if (this.phase !== 'setup') this.count({ method, path, template, actor, body }, reply, requestId)
    return reply
  }

  /** A setup request that must succeed; its JSON answer. */
  async ok(method: string, path: string, actor: Actor, body?: unknown) {
    const res = await this.send(method, path, actor, body === undefined ? undefined : JSON.stringify(body))
    if (res.status >= 300) throw new Error(`setup ${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`)
    return res.json
  }

  /** The phases' tallies added up. */
  total(): Tally {
    const total = emptyTally()
    for (const t of Object.values(this.phases)) {
      total.requests += t.requests
      total.notErrorShape += t.notErrorShape
      for (const k of Object.keys(t.classes) as StatusClass[]) total.classes[k] += t.classes[k]
    }
    return total
  }

  /** Counts an answer in the current phase: its status class, a 4xx outside the error shape, an operation answered 2xx, a 5xx. */
  private count(sent: Sent, { status, text, json }: Reply, requestId: string | null) {
    const t = (this.phases[this.phase] ??= emptyTally())
    t.requests++
    const cls: StatusClass = status < 0 ? 'timeout' : status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx'
    t.classes[cls]++
    if (cls === '4xx' && !(typeof json?.error?.code === 'string' && typeof json?.error?.message === 'string')) {
      t.notErrorShape++
      const key = `${sent.method} ${sent.template} ${status}`
      if (this.notErrorShape[key]) this.notErrorShape[key].count++
      else if (Object.keys(this.notErrorShape).length < 50) this.notErrorShape[key] = { count: 1, example: text.slice(0, 120) }
    }
    if (cls === '2xx') this.answered2xx.add(`${sent.method} ${sent.template}`)
    if (cls === '5xx' || cls === 'timeout') this.noteFinding(sent, status, text, requestId)
  }

  /** A 5xx or timeout, kept by status, operation and the server's log line for it. */
  private noteFinding({ method, path, template, actor, body }: Sent, status: number, text: string, requestId: string | null) {
    const logLine = (requestId && this.server.log.byRequest.get(requestId)) || undefined
    const message =
      logLine
        ?.replace(/ \| at .*/, '')
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<uuid>')
        .slice(0, 160) ?? '(no log line: throttled or not logged)'
    const key = `${status < 0 ? 'timeout' : status} ${method} ${template} ${message}`
    // At most 200 distinct findings are kept apart; the rest share one entry (memory stays bounded).
    const bucket = this.findings.has(key) || this.findings.size < 200 ? key : '(more distinct 5xx than 200)'
    const finding = this.findings.get(bucket) ?? this.findings.set(bucket, { key: bucket, count: 0, examples: [] }).get(bucket)!
    finding.count++
    if (finding.examples.length < 3) {
      finding.examples.push({
        actor: actor.name,
        method,
        path: path.slice(0, 300),
        body: body?.slice(0, 300),
        status,
        response: text.slice(0, 300),
        log: logLine,
      })
    }
  }
}
