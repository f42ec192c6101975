import { useState } from 'preact/hooks'
import type { MonitoredSite, MonitoredSiteCheck, MonitoredSiteDetail } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, Section, useAction, useLoad, useSubpath, when } from '../ui'
import { Badge, ms, percent } from './engagement-ui'

export const MONITORED_SITES_PATH = '#/monitored-sites'
const PAGE_SIZE = 20
/** How many of the newest checks the chart draws. */
const CHART_CHECKS = 60

const EMPTY_FORM = { name: '', url: '', intervalMinutes: '5', expectedStatus: '200', keyword: '', timeoutMs: '' }
type SiteForm = typeof EMPTY_FORM

/** The form's values as the API takes them (empty optional fields left out). */
function settings(form: SiteForm) {
  return {
    name: form.name,
    url: form.url,
    intervalMinutes: Number(form.intervalMinutes),
    expectedStatus: form.expectedStatus ? Number(form.expectedStatus) : undefined,
    keyword: form.keyword || null,
    timeoutMs: form.timeoutMs ? Number(form.timeoutMs) : undefined,
  }
}

function SiteFields({ form, setForm }: { form: SiteForm; setForm: (f: SiteForm) => void }) {
  return (
    <>
      <label>
        Site name <input required maxLength={200} value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
      </label>
      <label>
        URL <input required type="url" placeholder="https://…" value={form.url} onInput={(e) => setForm({ ...form, url: e.currentTarget.value })} />
      </label>
      <label>
        Check every (minutes){' '}
        <input
          required
          type="number"
          min={1}
          max={60}
          value={form.intervalMinutes}
          onInput={(e) => setForm({ ...form, intervalMinutes: e.currentTarget.value })}
        />
      </label>
      <label>
        Expected status{' '}
        <input type="number" min={100} max={599} value={form.expectedStatus} onInput={(e) => setForm({ ...form, expectedStatus: e.currentTarget.value })} />
      </label>
      <label>
        Keyword (optional) <input value={form.keyword} onInput={(e) => setForm({ ...form, keyword: e.currentTarget.value })} />
      </label>
      <label>
        Timeout (ms, optional){' '}
        <input type="number" min={100} max={30000} value={form.timeoutMs} onInput={(e) => setForm({ ...form, timeoutMs: e.currentTarget.value })} />
      </label>
    </>
  )
}

const stateTone = (s: MonitoredSite['state']) => (s === 'up' ? 'good' : s === 'down' ? 'bad' : 'neutral')

/** The ecosystem's monitored sites (state, 24 h uptime and p95 latency), adding one, and a site's detail. */
export function MonitoredSites() {
  const id = useSubpath(MONITORED_SITES_PATH)
  return <div class="eng-page">{id ? <SiteDetail key={id} id={id} /> : <SiteList />}</div>
}

function SiteList() {
  const [page, setPage] = useState(1)
  // The list has no stats; each row's 24 h figures come from the site's own answer.
  const list = useLoad(async () => {
    const sites = await data(client.api.monitored_sites.sites.get({ query: { page, pageSize: PAGE_SIZE } }))
    const details = await Promise.all(sites.items.map((s) => data(client.api.monitored_sites.sites({ id: s.id }).get()).catch(() => null)))
    return { ...sites, details: new Map(details.filter((d): d is MonitoredSiteDetail => !!d).map((d) => [d.id, d])) }
  }, [page])
  const [form, setForm] = useState(EMPTY_FORM)
  const add = useAction()

  const submit = async (e: Event) => {
    e.preventDefault()
    const ok = await add.run(() => data(client.api.monitored_sites.sites.post({ ...settings(form), keyword: form.keyword || undefined })))
    if (ok) {
      setForm(EMPTY_FORM)
      list.reload()
    }
  }

  return (
    <>
      <Section title="Monitored sites">
        <ErrorNote error={list.error} />
        <table>
          <caption class="muted">Uptime and p95 latency over the last 24 hours</caption>
          <thead>
            <tr>
              <th>Site</th>
              <th>State</th>
              <th class="keep">Uptime</th>
              <th class="keep">p95 latency</th>
              <th>Last checked</th>
              <th>Every</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((s) => {
              const stats = list.data!.details.get(s.id)?.stats['24h']
              return (
                <tr key={s.id}>
                  <td>
                    <a href={`${MONITORED_SITES_PATH}/${s.id}`}>{s.name}</a>
                    <br />
                    <small class="muted wrap">{s.url}</small>
                  </td>
                  <td>
                    <Badge tone={stateTone(s.state)}>{s.enabled ? s.state : `${s.state} (paused)`}</Badge>
                  </td>
                  <td class="keep">{percent(stats?.uptimePercent)}</td>
                  <td class="keep">{ms(stats?.p95LatencyMs)}</td>
                  <td>{when(s.lastCheckedAt)}</td>
                  <td>{s.intervalMinutes} min</td>
                </tr>
              )
            })}
            {list.data?.items.length === 0 && (
              <tr>
                <td colSpan={6}>No sites watched yet.</td>
              </tr>
            )}
          </tbody>
        </table>
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title="Watch a site">
        <form onSubmit={submit} class="inline">
          <SiteFields form={form} setForm={setForm} />
          <button type="submit" disabled={add.busy}>
            Add site
          </button>
        </form>
        <ErrorNote error={add.error} />
      </Section>
    </>
  )
}

function SiteDetail({ id }: { id: string }) {
  const site = useLoad(() => data(client.api.monitored_sites.sites({ id }).get()), [id])
  const recent = useLoad(() => data(client.api.monitored_sites.sites({ id }).checks.get({ query: { pageSize: CHART_CHECKS } })), [id])
  const [page, setPage] = useState(1)
  const checks = useLoad(() => data(client.api.monitored_sites.sites({ id }).checks.get({ query: { page, pageSize: PAGE_SIZE } })), [id, page])
  const act = useAction()
  const [last, setLast] = useState<MonitoredSiteCheck | null>(null)

  const reloadAll = () => {
    site.reload()
    recent.reload()
    checks.reload()
  }
  const checkNow = () =>
    act.run(async () => {
      setLast(await data(client.api.monitored_sites.sites({ id }).check.post()))
      reloadAll()
    })
  const toggle = (s: MonitoredSiteDetail) =>
    act.run(async () => {
      await data(client.api.monitored_sites.sites({ id }).patch({ enabled: !s.enabled }))
      site.reload()
    })
  const [editing, setEditing] = useState<SiteForm | null>(null)
  const startEdit = (s: MonitoredSiteDetail) =>
    setEditing({
      name: s.name,
      url: s.url,
      intervalMinutes: String(s.intervalMinutes),
      expectedStatus: String(s.expectedStatus),
      keyword: s.keyword ?? '',
      timeoutMs: String(s.timeoutMs),
    })
  const save = async (e: Event) => {
    e.preventDefault()
    if (!editing) return
    // Only what changed: the service starts a site afresh (state unknown) whenever a url is sent.
    const current = site.data as Record<string, unknown> | undefined
    const changes = Object.fromEntries(Object.entries(settings(editing)).filter(([k, v]) => v !== undefined && v !== current?.[k]))
    if (Object.keys(changes).length === 0) return setEditing(null)
    const ok = await act.run(() => data(client.api.monitored_sites.sites({ id }).patch(changes)))
    if (ok) {
      setEditing(null)
      reloadAll()
    }
  }
  const remove = (s: MonitoredSiteDetail) =>
    act.run(async () => {
      if (!(await ask(`Stop watching ${s.name}?`, 'Stop watching'))) return
      await data(client.api.monitored_sites.sites({ id }).delete())
      location.hash = MONITORED_SITES_PATH
    })

  const s = site.data
  return (
    <>
      <p>
        <a href={MONITORED_SITES_PATH}>← Monitored sites</a>
      </p>
      <ErrorNote error={site.error} />
      {s && (
        <Section title={s.name}>
          <p class="wrap">
            <a href={s.url} target="_blank" rel="noreferrer noopener">
              {s.url}
            </a>
          </p>
          <p>
            <Badge tone={stateTone(s.state)}>{s.state}</Badge> {s.stateChangedAt && <span class="muted">since {when(s.stateChangedAt)}</span>}{' '}
            {!s.enabled && <Badge tone="warn">paused</Badge>}
          </p>
          <table class="stats-table">
            <caption class="sr">Uptime and p95 latency by period</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Uptime</th>
                <th scope="col">p95 latency</th>
                <th scope="col">Checks</th>
              </tr>
            </thead>
            <tbody>
              {(
                [
                  ['24h', 'Last 24 hours'],
                  ['7d', 'Last 7 days'],
                  ['30d', 'Last 30 days'],
                ] as const
              ).map(([k, label]) => (
                <tr key={k}>
                  <th scope="row">{label}</th>
                  <td>{percent(s.stats[k].uptimePercent)}</td>
                  <td>{ms(s.stats[k].p95LatencyMs)}</td>
                  <td>{s.stats[k].checks}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <dl>
            <dt>Every</dt>
            <dd>
              {s.intervalMinutes} min (next {when(s.nextCheckAt)})
            </dd>
            <dt>Expects</dt>
            <dd>
              status {s.expectedStatus}
              {s.keyword ? `, text “${s.keyword}”` : ''}, within {s.timeoutMs} ms
            </dd>
            <dt>Last check</dt>
            <dd>
              {when(s.lastCheckedAt)}
              {s.lastStatusCode != null ? ` — ${s.lastStatusCode}` : ''}
              {s.lastLatencyMs != null ? `, ${ms(s.lastLatencyMs)}` : ''}
            </dd>
            {s.lastError && (
              <>
                <dt>Last error</dt>
                <dd>{s.lastError}</dd>
              </>
            )}
            {s.tlsDaysLeft != null && (
              <>
                <dt>Certificate</dt>
                <dd>expires in {s.tlsDaysLeft} days</dd>
              </>
            )}
          </dl>
          <div class="row-actions">
            <button type="button" onClick={checkNow} disabled={act.busy}>
              {act.busy ? 'Checking…' : 'Check now'}
            </button>
            <button type="button" class="secondary" onClick={() => (editing ? setEditing(null) : startEdit(s))} aria-expanded={!!editing}>
              Edit settings
            </button>
            <button type="button" class="secondary" onClick={() => toggle(s)} disabled={act.busy}>
              {s.enabled ? 'Pause checks' : 'Resume checks'}
            </button>
            <button type="button" class="danger" onClick={() => remove(s)} disabled={act.busy}>
              Stop watching
            </button>
          </div>
          {editing && (
            <form onSubmit={save} class="inline" aria-label="Site settings">
              <SiteFields form={editing} setForm={setEditing} />
              <button type="submit" disabled={act.busy}>
                Save settings
              </button>
              <button type="button" class="secondary" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </form>
          )}
          {last && (
            <p role="status">
              Checked: {last.ok ? 'up' : 'failed'}
              {last.statusCode != null ? `, status ${last.statusCode}` : ''}
              {last.latencyMs != null ? `, ${ms(last.latencyMs)}` : ''}
              {last.error ? ` — ${last.error}` : ''}
            </p>
          )}
          <ErrorNote error={act.error} />
        </Section>
      )}
      <Section title="Recent checks">
        <ErrorNote error={recent.error} />
        {recent.data && <CheckChart checks={recent.data.items} />}
        <ErrorNote error={checks.error} />
        <table>
          <thead>
            <tr>
              <th>Checked</th>
              <th>Result</th>
              <th>Status</th>
              <th>Latency</th>
              <th>Error</th>
            </tr>
          </thead>
          <tbody>
            {checks.data?.items.map((c) => (
              <tr key={c.id}>
                <td>{when(c.checkedAt)}</td>
                <td>
                  <Badge tone={c.ok ? 'good' : 'bad'}>{c.ok ? 'up' : 'failed'}</Badge>
                </td>
                <td>{c.statusCode ?? '—'}</td>
                <td>{ms(c.latencyMs)}</td>
                <td>{c.error ?? ''}</td>
              </tr>
            ))}
            {checks.data?.items.length === 0 && (
              <tr>
                <td colSpan={5}>No checks yet.</td>
              </tr>
            )}
          </tbody>
        </table>
        {checks.data && <Pager page={page} pageSize={PAGE_SIZE} total={checks.data.total} onPage={setPage} />}
      </Section>
    </>
  )
}

/**
 * The newest checks, oldest on the left, drawn as inline SVG: latency above (a line through the
 * checks that got an answer; a green dot for a passed check, a red square for a failed one), and an
 * uptime strip below (a green or red segment per check, so a failure without an answer shows too).
 */
export function CheckChart({ checks }: { checks: MonitoredSiteCheck[] }) {
  const points = [...checks].reverse()
  const W = 600
  const H = 200
  const pad = { left: 48, right: 12, top: 12 }
  const plotW = W - pad.left - pad.right
  const plotBottom = H - 56
  const plotH = plotBottom - pad.top
  const strip = { y: H - 44, h: 12 }
  const latencies = points.map((c) => c.latencyMs).filter((n): n is number => n != null)
  const max = niceMax(Math.max(10, ...latencies))
  const slot = plotW / Math.max(1, points.length)
  // Each check sits in the middle of its slot, so one check is centred and the strip lines up.
  const x = (i: number) => pad.left + slot * (i + 0.5)
  const y = (v: number) => plotBottom - (v / max) * plotH
  const up = points.filter((c) => c.ok).length
  const failed = points.length - up
  const summary =
    points.length === 0
      ? 'Uptime and latency chart: no checks yet'
      : `Uptime and latency of the last ${points.length} ${points.length === 1 ? 'check' : 'checks'}: ${up} up, ${failed} failed` +
        (latencies.length ? `; latency ${Math.round(Math.min(...latencies))} to ${Math.round(Math.max(...latencies))} ms` : '') +
        `; from ${when(points[0]!.checkedAt)} to ${when(points[points.length - 1]!.checkedAt)}`
  const line = points
    .map((c, i) => (c.latencyMs != null ? `${x(i).toFixed(1)},${y(c.latencyMs).toFixed(1)}` : null))
    .filter(Boolean)
    .join(' ')
  const ticks = [0, max / 2, max]
  return (
    <figure style={{ margin: 0 }}>
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} data-checks={points.length}>
        <title>{summary}</title>
        {ticks.map((t) => (
          <g key={t}>
            <line class="grid" x1={pad.left} x2={W - pad.right} y1={y(t)} y2={y(t)} />
            <text class="label" x={pad.left - 6} y={y(t) + 4} text-anchor="end">
              {Math.round(t)} ms
            </text>
          </g>
        ))}
        <line class="axis" x1={pad.left} x2={W - pad.right} y1={plotBottom} y2={plotBottom} />
        {latencies.length > 1 && <polyline class="line" points={line} />}
        {points.map((c, i) =>
          c.latencyMs == null ? null : c.ok ? (
            <circle key={c.id} class="ok" cx={x(i)} cy={y(c.latencyMs)} r={3.5} />
          ) : (
            <rect key={c.id} class="fail-point" x={x(i) - 3.5} y={y(c.latencyMs) - 3.5} width={7} height={7} />
          ),
        )}
        <text class="label" x={pad.left - 6} y={strip.y + strip.h - 2} text-anchor="end">
          state
        </text>
        {points.map((c, i) => (
          <rect
            key={`s${c.id}`}
            class={c.ok ? 'ok' : 'fail'}
            x={pad.left + slot * i + (slot > 4 ? 0.5 : 0)}
            y={strip.y}
            width={Math.max(1, slot - (slot > 4 ? 1 : 0))}
            height={strip.h}
          />
        ))}
        {points.length > 0 && (
          <>
            <text class="label" x={pad.left} y={H - 12}>
              {shortTime(points[0]!.checkedAt)}
            </text>
            <text class="label" x={W - pad.right} y={H - 12} text-anchor="end">
              {shortTime(points[points.length - 1]!.checkedAt)}
            </text>
          </>
        )}
      </svg>
      <figcaption class="legend">
        <span>
          <span class="dot" style={{ background: 'var(--ok)' }} />
          passed
        </span>
        <span>
          <span class="dot" style={{ background: 'var(--danger)', borderRadius: 0 }} />
          failed
        </span>
        <span>line: answer time</span>
      </figcaption>
    </figure>
  )
}

function niceMax(n: number): number {
  const step = 10 ** Math.floor(Math.log10(n))
  for (const m of [1, 2, 5, 10]) if (m * step >= n) return m * step
  return 10 * step
}

function shortTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
}
