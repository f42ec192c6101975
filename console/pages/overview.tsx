import type { UsageOverview, UsageOverviewDay } from '../../client/index'
import { bytes, client, data } from '../api'
import { ErrorNote, Section, UsageBar, useLoad, when } from '../ui'
import { lastGood } from './backups'
import { MONITORED_SITES_PATH } from './monitored-sites'

export const OVERVIEW_PATH = '#/overview'

/** The picked ecosystem at a glance: what an operator looks at first. */
export function Overview() {
  const overview = useLoad(() => data(client.api.usage.overview.get()), [])
  const me = useLoad(() => data(client.api.auth.me.get()), [])
  // The instance's last good backup, for platform admins (others may not read the backups).
  const admin = me.data?.capabilities.includes('admin') ?? false
  const backups = useLoad(() => (admin ? data(client.api.system.backups.settings.get()) : Promise.resolve(null)), [admin])
  const o = overview.data
  return (
    <div class="eng-page overview">
      <ErrorNote error={overview.error} />
      {o && <Figures o={o} />}
      {backups.data?.available && (
        <p
          data-testid="overview-last-backup"
          class={backups.data.lastCompleteAgeSeconds === null || backups.data.lastCompleteAgeSeconds > 2 * 86_400 ? 'error' : undefined}
        >
          <a href="#/backups">Last complete backup</a> of this instance: {lastGood(backups.data)}
        </p>
      )}
      {o && (
        <Section title="Last 7 days">
          <div class="charts">
            <DailyBars days={o.days} pick={(d) => d.signIns + d.memberSignIns} title="Sign-ins per day (customers and team)" />
            <DailyBars days={o.days} pick={(d) => d.chatMessages} title="Chat messages per day" />
          </div>
        </Section>
      )}
      {o && (
        <Section title="Recent activity">
          <ul class="list">
            {o.recent.map((r) => (
              <li key={r.id}>
                {r.summary}{' '}
                <small class="muted">
                  · <a href={`#/customers/${r.customerId}`}>customer</a> · {r.source} · {when(r.createdAt)}
                </small>
              </li>
            ))}
            {o.recent.length === 0 && <li>Nothing yet.</li>}
          </ul>
        </Section>
      )}
    </div>
  )
}

function Figures({ o }: { o: UsageOverview }) {
  const sum = (pick: (d: UsageOverviewDay) => number) => o.days.reduce((n, d) => n + pick(d), 0)
  const failures = sum((d) => d.webhookFailures)
  return (
    <section class="figures" aria-label="Figures">
      <div class="figure">
        <strong data-testid="overview-customers">{o.customers}</strong>
        <span>
          <a href="#/customers">Customers</a>
        </span>
      </div>
      <div class="figure">
        <strong data-testid="overview-storage">{bytes(o.storage.usedBytes)}</strong>
        <span>
          of {bytes(o.storage.quotaBytes)} quota
          {o.storage.customersNearQuota > 0 && (
            <>
              , <b>{o.storage.customersNearQuota}</b> near theirs
            </>
          )}
        </span>
        <UsageBar used={o.storage.usedBytes} total={o.storage.quotaBytes} label="Storage used against quota" />
      </div>
      <div class="figure">
        <strong data-testid="overview-sent">{sum((d) => d.messagesSent)}</strong>
        <span>
          <a href="#/logs/messages">Messages sent</a>, 7 days
        </span>
      </div>
      <div class="figure">
        <strong data-testid="overview-webhook-failures" class={failures > 0 ? 'error' : undefined}>
          {failures}
        </strong>
        <span>
          <a href="#/logs/webhooks">Webhook failures</a>, 7 days
        </span>
      </div>
      <div class="figure">
        <strong data-testid="overview-sites-down" class={o.sitesDown.length > 0 ? 'error' : undefined}>
          {o.sitesDown.length}
        </strong>
        <span>
          Sites down now
          {o.sitesDown.map((s) => (
            <>
              {' '}
              ·{' '}
              <a key={s.id} href={`${MONITORED_SITES_PATH}/${s.id}`}>
                {s.name}
              </a>
            </>
          ))}
        </span>
      </div>
    </section>
  )
}

const W = 280
const H = 120
const PAD = 18

/** Seven bars, one per UTC day, in an inline SVG; the label says the numbers for screen readers. */
function DailyBars({ days, pick, title }: { days: UsageOverviewDay[]; pick: (d: UsageOverviewDay) => number; title: string }) {
  const values = days.map(pick)
  const top = Math.max(1, ...values)
  const slot = (W - PAD) / days.length
  const summary = `${title}: ${days.map((d, i) => `${d.day.slice(5)} ${values[i]}`).join(', ')}`
  return (
    <figure>
      <figcaption>{title}</figcaption>
      <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} data-values={values.join(',')}>
        <line class="axis" x1={PAD} y1={H - PAD} x2={W} y2={H - PAD} />
        {values.map((v, i) => {
          const height = ((H - 2 * PAD) * v) / top
          const x = PAD + i * slot + slot * 0.15
          return (
            <g key={days[i]!.day}>
              <rect class="bar" x={x} y={H - PAD - height} width={slot * 0.7} height={height} />
              <text class="label" x={x + slot * 0.35} y={H - 4} text-anchor="middle">
                {days[i]!.day.slice(8)}
              </text>
              {v > 0 && (
                <text class="label" x={x + slot * 0.35} y={H - PAD - height - 3} text-anchor="middle">
                  {v}
                </text>
              )}
            </g>
          )
        })}
      </svg>
    </figure>
  )
}
