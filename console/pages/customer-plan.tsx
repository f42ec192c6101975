import { useState } from 'preact/hooks'
import { client, data } from '../api'
import { ask, ErrorNote, Section, useAction, useLoad, UsageBar, when } from '../ui'

/** A customer's plan in force (and why), their use of each feature, and a manual assignment that wins over any subscription. */
export function CustomerPlan({ customerId }: { customerId: string }) {
  const account = useLoad(() => data(client.api.billing.customers({ customerId }).get()), [customerId])
  const plans = useLoad(() => data(client.api.billing.plans.get({ query: { pageSize: 100 } })), [])
  const [picked, setPicked] = useState('')
  const act = useAction()
  const assign = async (e: Event) => {
    e.preventDefault()
    if (await act.run(() => data(client.api.billing.customers({ customerId }).plan.put({ plan: picked })))) account.reload()
  }
  const unassign = async () => {
    if (!(await ask('Remove the manual plan? The subscription or the default plan applies again.', 'Remove assignment'))) return
    if (await act.run(() => data(client.api.billing.customers({ customerId }).plan.delete()))) account.reload()
  }
  const a = account.data
  return (
    <Section title="Plan and use">
      <ErrorNote error={account.error ?? act.error} />
      {a && (
        <>
          <p data-testid="customer-plan">
            {a.plan ? (
              <>
                Plan <strong>{plans.data?.items.find((p) => p.key === a.plan)?.name ?? a.plan}</strong>
              </>
            ) : (
              'No plan'
            )}{' '}
            ({a.source === 'manual' ? 'assigned here' : a.source === 'stripe' ? 'Stripe subscription' : 'the default'})
            {a.subscription && (
              <>
                {' '}
                · subscription {a.subscription.status}
                {a.subscription.currentPeriodEnd && `, period ends ${when(a.subscription.currentPeriodEnd)}`}
                {a.subscription.cancelAtPeriodEnd && ', cancels then'}
              </>
            )}
          </p>
          <table>
            <thead>
              <tr>
                <th>Feature</th>
                <th>Use</th>
                <th>Resets</th>
                <th>Reported to Stripe</th>
              </tr>
            </thead>
            <tbody>
              {a.entitlements.map((e) => (
                <tr key={e.feature}>
                  <td>
                    <code>{e.feature}</code>
                  </td>
                  <td>
                    {e.type === 'boolean' ? (
                      e.enabled ? (
                        'granted'
                      ) : (
                        'not granted'
                      )
                    ) : !e.enabled ? (
                      'not granted'
                    ) : e.limit === null ? (
                      `${e.used} (no limit)`
                    ) : (
                      <>
                        <UsageBar used={e.used} total={e.limit} label={`${e.feature} used`} />
                        {e.used} of {e.limit}
                      </>
                    )}
                  </td>
                  <td>{e.resetsAt ? when(e.resetsAt) : '—'}</td>
                  <td>
                    {e.reported ? (
                      <>
                        <code>{e.reported.meter}</code>: {e.reported.sent} sent{e.reported.pending > 0 && `, ${e.reported.pending} pending`}
                        {e.reported.failed > 0 && `, ${e.reported.failed} refused`}
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <form class="inline" onSubmit={assign}>
            <label>
              Assign plan{' '}
              <select required value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
                <option value="">Choose…</option>
                {plans.data?.items.map((p) => (
                  <option key={p.key} value={p.key}>
                    {p.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={act.busy || !picked}>
              Assign
            </button>
            {a.source === 'manual' && (
              <button type="button" class="secondary" onClick={() => void unassign()}>
                Remove assignment
              </button>
            )}
          </form>
        </>
      )}
    </Section>
  )
}
