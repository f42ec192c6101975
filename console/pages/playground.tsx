import { useEffect, useRef, useState } from 'preact/hooks'
import type { ChatEvent, Customer } from '../../client/index'
import { client, data, message } from '../api'
import { type SupportSession, useSupportSession } from '../support'
import { ErrorNote, Section, useAction, useLoad } from '../ui'
import './playground.css'

export const PLAYGROUND_PATH = '#/playground'

/** One line of the conversation as it streams: what was said, and each tool call with its answer once it comes. */
type Line =
  | { kind: 'user' | 'assistant'; text: string }
  | { kind: 'tool'; name: string; args: string; ok?: boolean; result?: string }
  | { kind: 'error'; text: string }

/** A support session acting as the customer, and the conversation started with it. */
interface Acting {
  customer: Customer
  /** The persona's name; null for none. */
  persona: string | null
  support: SupportSession
  conversationId: string
}

const who = (c: Customer) => c.name ?? c.email ?? c.externalId ?? c.id

/** A stream event applied to the conversation: tokens grow the reply, tool calls appear when they start and get their answer when they complete. */
function applyEvent(lines: Line[], ev: ChatEvent): Line[] {
  const last = lines[lines.length - 1]
  switch (ev.event) {
    case 'token':
      return last?.kind === 'assistant'
        ? [...lines.slice(0, -1), { ...last, text: last.text + ev.data.text }]
        : [...lines, { kind: 'assistant', text: ev.data.text }]
    case 'tool_call_started':
      return [...lines, { kind: 'tool', name: ev.data.name, args: ev.data.arguments }]
    case 'tool_call_completed': {
      const at = lines.findLastIndex((l) => l.kind === 'tool' && l.name === ev.data.name && l.result === undefined)
      return at < 0 ? lines : lines.map((l, i) => (i === at ? { ...l, ok: ev.data.ok, result: ev.data.result } : l))
    }
    case 'error':
      return [...lines, { kind: 'error', text: ev.data.message }]
    default:
      return lines
  }
}

/**
 * Talk to a persona as one of the ecosystem's customers: a support session (audited, 15 minutes,
 * not refreshable) gives a client acting as the customer, whose chat stream the page shows live.
 */
export function Playground() {
  const [q, setQ] = useState('')
  const [search, setSearch] = useState('')
  const personas = useLoad(() => data(client.api.persona.personas.get({ query: { pageSize: 100 } })), [])
  const customers = useLoad(() => data(client.api.customer.customers.get({ query: { pageSize: 50, ...(q ? { q } : {}) } })), [q])
  const [persona, setPersona] = useState('')
  const [customerId, setCustomerId] = useState('')
  const [acting, setActing] = useState<Acting | null>(null)
  const support = useSupportSession()
  const [ended, setEnded] = useState(false)
  const { error, busy, run } = useAction()
  const picked = customers.data?.items.find((c) => c.id === customerId)

  useEffect(() => {
    const first = customers.data?.items[0]
    if (first && !customers.data?.items.some((c) => c.id === customerId)) setCustomerId(first.id)
  }, [customers.data])

  const start = () =>
    run(async () => {
      if (!picked) throw new Error('Pick a customer first')
      setEnded(false)
      const started = await support.start(picked.id)
      const conversation = await data(started.client.api.chat.conversations.post({ title: 'Playground', ...(persona ? { personaSlug: persona } : {}) }))
      const personaName = personas.data?.items.find((p) => p.slug === persona)?.name ?? null
      setActing({ customer: picked, persona: personaName, support: started, conversationId: conversation.id })
    })
  const end = () => {
    support.end()
    setActing(null)
    setEnded(true)
  }

  return (
    <div class="playground">
      <Section title="Act as">
        <p class="muted">Talk to a persona as one of your customers. This starts a support session: in the audit log, 15 minutes, then it ends.</p>
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault()
            setQ(search.trim())
            customers.reload()
          }}
        >
          <label>
            Find a customer <input type="search" placeholder="Name or e-mail" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          </label>
          <button type="submit" class="secondary">
            Search
          </button>
        </form>
        <div class="playground-pick">
          <label>
            Persona{' '}
            <select value={persona} onChange={(e) => setPersona(e.currentTarget.value)} disabled={!personas.data}>
              <option value="">No persona (the default model)</option>
              {personas.data?.items.map((p) => (
                <option key={p.id} value={p.slug}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Customer{' '}
            <select value={customerId} onChange={(e) => setCustomerId(e.currentTarget.value)} disabled={!customers.data?.items.length}>
              {customers.data?.items.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.email && c.name ? `${c.name} — ${c.email}` : who(c)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={start} disabled={busy || !picked}>
            Start conversation
          </button>
        </div>
        {(personas.loading || customers.loading) && <p class="muted">Loading…</p>}
        {personas.data?.items.length === 0 && <p class="muted">No personas yet: the ecosystem's default model answers.</p>}
        {customers.data?.items.length === 0 && (
          <p>{q ? `No customer matches “${q}”.` : 'No customers yet: create one under Customers, then talk as them here.'}</p>
        )}
        {ended && <p role="status">Support session ended: its token no longer works.</p>}
        <ErrorNote error={personas.error ?? customers.error ?? error} />
      </Section>
      {acting && support.session === acting.support && <Conversation key={acting.conversationId} acting={acting} onEnd={end} />}
    </div>
  )
}

/** The conversation of one support session: send, watch the reply and its tool calls stream in, stop; end the session. */
function Conversation({ acting, onEnd }: { acting: Acting; onEnd: () => void }) {
  const [lines, setLines] = useState<Line[]>([])
  const [text, setText] = useState('')
  const [streaming, setStreaming] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const stop = useRef<AbortController | null>(null)
  useEffect(() => () => stop.current?.abort(), [])

  const send = async (e: Event) => {
    e.preventDefault()
    const said = text.trim()
    if (!said || streaming) return
    if (Date.parse(acting.support.expiresAt) <= Date.now()) {
      setError('The support session has ended: start a new conversation.')
      return
    }
    setText('')
    setError(null)
    setLines((l) => [...l, { kind: 'user', text: said }])
    setStreaming(true)
    const controller = new AbortController()
    stop.current = controller
    try {
      for await (const ev of acting.support.client.chat.send(acting.conversationId, { message: said }, { signal: controller.signal })) {
        setLines((l) => applyEvent(l, ev))
      }
    } catch (err) {
      setError(message(err))
    } finally {
      setStreaming(false)
      stop.current = null
    }
  }

  const until = new Date(acting.support.expiresAt).toLocaleTimeString()
  return (
    <Section title={`Talking as ${who(acting.customer)}`}>
      <p class="muted">
        {acting.persona ? `Persona ${acting.persona}` : 'No persona'}; support session until {until}.{' '}
        <button type="button" class="secondary" onClick={onEnd}>
          End session
        </button>
      </p>
      <div class="messages playground-log" role="log" aria-label="Conversation" aria-live="polite" aria-busy={streaming}>
        {lines.length === 0 && <p class="muted">No messages yet: say something below.</p>}
        {lines.map((line, i) =>
          line.kind === 'tool' ? (
            <div key={i} class="message tool" data-testid="tool-call">
              <strong>tool {line.name}</strong> <code>{line.args}</code>
              <p>{line.result === undefined ? 'Running…' : `${line.ok ? '→' : 'failed:'} ${line.result}`}</p>
            </div>
          ) : (
            <div key={i} class={`message ${line.kind}`} role={line.kind === 'error' ? 'alert' : undefined}>
              <strong>{line.kind}</strong> <p>{line.text}</p>
            </div>
          ),
        )}
        {streaming && <p class="muted">Streaming…</p>}
      </div>
      <form class="playground-send" onSubmit={send}>
        <label>
          Message <textarea rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={streaming || !text.trim()}>
          Send
        </button>
        {streaming && (
          <button type="button" class="secondary" onClick={() => stop.current?.abort()}>
            Stop
          </button>
        )}
      </form>
      <ErrorNote error={error} />
    </Section>
  )
}
