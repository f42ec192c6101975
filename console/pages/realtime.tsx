import { useEffect, useRef, useState } from 'preact/hooks'
import type { Topic } from '../../client/index'
import { client, message } from '../api'
import { ErrorNote, Section } from '../ui'

/** The topics an operator can watch here; a contract table is `contract/<name>`. */
const TOPICS = ['data/documents', 'data/document_blocks', 'userdata/notes', 'community/categories', 'community/threads', 'notifications'] as const
const KEEP = 100

interface Seen {
  cursor: string
  topic: string
  op: string
  id: string
  at: string
}

/**
 * Live changes of the picked ecosystem, as the realtime stream delivers them to you (what your
 * own lists would show), newest first: a way to see that writes reach subscribers.
 */
export function Realtime() {
  const [picked, setPicked] = useState<string[]>(['community/threads'])
  const [contract, setContract] = useState('')
  const [watching, setWatching] = useState(false)
  const [seen, setSeen] = useState<Seen[]>([])
  const [note, setNote] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const stop = useRef<AbortController | null>(null)
  useEffect(() => () => stop.current?.abort(), [])

  const watch = (e: Event) => {
    e.preventDefault()
    const topics = [...picked, ...(contract.trim() ? [`contract/${contract.trim()}`] : [])] as Topic[]
    const controller = new AbortController()
    stop.current = controller
    setWatching(true)
    setError(null)
    setNote(`Watching ${topics.join(', ')}…`)
    void (async () => {
      try {
        for await (const ev of client.realtime.subscribe(topics, {
          signal: controller.signal,
          onReconnect: (ms) => setNote(`Reconnecting in ${Math.round(ms / 100) / 10} s…`),
        })) {
          if (controller.signal.aborted) break
          if (ev.event === 'reset') setNote('The stream was away too long: reload your lists.')
          else setSeen((list) => [{ cursor: ev.cursor, topic: ev.data.topic, op: ev.data.op, id: ev.data.id, at: ev.data.at }, ...list].slice(0, KEEP))
        }
      } catch (err) {
        if (!controller.signal.aborted) setError(message(err))
      } finally {
        if (stop.current === controller) setWatching(false)
      }
    })()
  }
  /** Stops at once: the stream's last read may still be settling. */
  const unwatch = () => {
    stop.current?.abort()
    stop.current = null
    setWatching(false)
  }
  const toggle = (topic: string, on: boolean) => setPicked((list) => (on ? [...list, topic] : list.filter((t) => t !== topic)))

  return (
    <Section title="Realtime">
      <form class="inline" onSubmit={watch}>
        <fieldset class="topics" disabled={watching}>
          <legend>Topics</legend>
          {TOPICS.map((t) => (
            <label key={t}>
              <input type="checkbox" checked={picked.includes(t)} onChange={(e) => toggle(t, e.currentTarget.checked)} /> {t}
            </label>
          ))}
          <label>
            Table <input value={contract} onInput={(e) => setContract(e.currentTarget.value)} placeholder="name" />
          </label>
        </fieldset>
        {watching ? (
          // Keyed: a reused element would keep type=submit, and Stop would start watching again.
          <button key="stop" type="button" onClick={unwatch}>
            Stop
          </button>
        ) : (
          <button key="watch" type="submit" disabled={picked.length === 0 && !contract.trim()}>
            Watch
          </button>
        )}
      </form>
      <ErrorNote error={error} />
      {note && watching && <p role="status">{note}</p>}
      <table aria-label="Changes, newest first">
        <thead>
          <tr>
            <th>Topic</th>
            <th>Change</th>
            <th>Row</th>
            <th>At</th>
          </tr>
        </thead>
        <tbody>
          {seen.map((s) => (
            <tr key={s.cursor}>
              <td>{s.topic}</td>
              <td>{s.op}</td>
              <td>
                <code>{s.id}</code>
              </td>
              <td>{new Date(s.at).toLocaleTimeString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  )
}
