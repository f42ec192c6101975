import { useState } from 'preact/hooks'
import type { BillingFeature, BillingPlan, BillingPlanCreate, BillingPlanEntitlement, BillingPrice } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, ListState, Section, useAction, useLoad } from '../ui'

/**
 * The ecosystem's billing: provider and currency (Stripe keys write-only), features, and plans with
 * what they grant. A customer's plan in force and their use are on the customer's page (CustomerPlan).
 */
export function Billing() {
  const features = useLoad(() => data(client.api.billing.features.get({ query: { pageSize: 100 } })), [])
  const plans = useLoad(() => data(client.api.billing.plans.get({ query: { pageSize: 100 } })), [])
  return (
    <div class="eng-page">
      <Settings />
      <Features
        features={features.data?.items ?? []}
        error={features.error}
        reload={() => {
          features.reload()
          plans.reload()
        }}
      />
      <Plans load={plans} features={features.data?.items ?? []} />
    </div>
  )
}

function Settings() {
  const current = useLoad(() => data(client.api.billing.settings.get()), [])
  const [form, setForm] = useState<{ provider: 'manual' | 'stripe'; currency: string; stripeSecretKey: string; stripeWebhookSecret: string } | null>(null)
  const { error, busy, run } = useAction()
  const [saved, setSaved] = useState(false)
  const shown =
    form ?? (current.data ? { provider: current.data.provider, currency: current.data.currency, stripeSecretKey: '', stripeWebhookSecret: '' } : null)
  const save = (e: Event) => {
    e.preventDefault()
    if (!shown) return
    setSaved(false)
    void run(async () => {
      await data(
        client.api.billing.settings.put({
          provider: shown.provider,
          currency: shown.currency.trim().toLowerCase(),
          ...(shown.stripeSecretKey ? { stripeSecretKey: shown.stripeSecretKey } : {}),
          ...(shown.stripeWebhookSecret ? { stripeWebhookSecret: shown.stripeWebhookSecret } : {}),
        }),
      )
      setForm(null)
      setSaved(true)
      current.reload()
    })
  }
  return (
    <Section title="Billing provider">
      <ErrorNote error={current.error ?? error} />
      {shown && (
        <form class="stack" onSubmit={save}>
          <label>
            Provider{' '}
            <select value={shown.provider} onChange={(e) => setForm({ ...shown, provider: e.currentTarget.value as 'manual' | 'stripe' })}>
              <option value="manual">Manual (plans assigned here, no outside service)</option>
              <option value="stripe">Stripe (Checkout, Customer Portal, webhooks)</option>
            </select>
          </label>
          <label>
            Currency{' '}
            <input
              required
              pattern="[A-Za-z]{3}"
              maxLength={3}
              value={shown.currency}
              onInput={(e) => setForm({ ...shown, currency: e.currentTarget.value })}
            />
          </label>
          {shown.provider === 'stripe' && (
            <>
              <p class="muted">
                Stored sealed and never shown again: {current.data?.configKeys.length ? `kept now: ${current.data.configKeys.join(', ')}` : 'none kept yet'}.
                Leave a field empty to keep it.
              </p>
              <label>
                Stripe secret key{' '}
                <input
                  type="password"
                  autocomplete="off"
                  value={shown.stripeSecretKey}
                  onInput={(e) => setForm({ ...shown, stripeSecretKey: e.currentTarget.value })}
                />
              </label>
              <label>
                Stripe webhook secret{' '}
                <input
                  type="password"
                  autocomplete="off"
                  value={shown.stripeWebhookSecret}
                  onInput={(e) => setForm({ ...shown, stripeWebhookSecret: e.currentTarget.value })}
                />
              </label>
            </>
          )}
          <div>
            <button type="submit" disabled={busy}>
              Save provider
            </button>
            {saved && <span role="status"> Saved.</span>}
          </div>
        </form>
      )}
    </Section>
  )
}

function Features({ features, error, reload }: { features: BillingFeature[]; error?: string; reload: () => void }) {
  const blank = { key: '', name: '', type: 'metered' as BillingFeature['type'], unit: '', reset: 'month' as BillingFeature['reset'] }
  const [form, setForm] = useState(blank)
  const act = useAction()
  const create = async (e: Event) => {
    e.preventDefault()
    const ok = await act.run(() =>
      data(
        client.api.billing.features.post({
          key: form.key.trim(),
          name: form.name.trim(),
          type: form.type,
          unit: form.unit.trim() || undefined,
          reset: form.reset,
        }),
      ),
    )
    if (ok) {
      setForm(blank)
      reload()
    }
  }
  const remove = async (f: BillingFeature) => {
    if (!(await ask(`Delete the feature “${f.name}” (${f.key})?`, 'Delete feature'))) return
    if (await act.run(() => data(client.api.billing.features({ key: f.key }).delete()))) reload()
  }
  return (
    <Section title="Features">
      <ErrorNote error={error ?? act.error} />
      <table>
        <thead>
          <tr>
            <th>Key</th>
            <th>Name</th>
            <th>Type</th>
            <th>Unit</th>
            <th>Resets</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {features.map((f) => (
            <tr key={f.key}>
              <td>
                <code>{f.key}</code>
              </td>
              <td>{f.name}</td>
              <td>{f.type}</td>
              <td>{f.unit || '—'}</td>
              <td>{f.reset === 'month' ? 'monthly' : 'never'}</td>
              <td class="keep">
                {f.builtIn ? (
                  <span class="muted">built in</span>
                ) : (
                  <button type="button" class="danger" aria-label={`Delete feature ${f.key}`} onClick={() => void remove(f)}>
                    Delete
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form class="inline" onSubmit={create} aria-label="New feature">
        <label>
          Feature key{' '}
          <input
            required
            pattern="[a-z0-9]+([._\-][a-z0-9]+)*"
            value={form.key}
            onInput={(e) => setForm({ ...form, key: e.currentTarget.value })}
            placeholder="api.calls"
          />
        </label>
        <label>
          Feature name <input required value={form.name} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
        <label>
          Type{' '}
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.currentTarget.value as BillingFeature['type'] })}>
            <option value="metered">metered</option>
            <option value="limit">limit</option>
            <option value="boolean">boolean</option>
          </select>
        </label>
        <label>
          Unit <input value={form.unit} onInput={(e) => setForm({ ...form, unit: e.currentTarget.value })} placeholder="calls" />
        </label>
        <label>
          Resets{' '}
          <select value={form.reset} onChange={(e) => setForm({ ...form, reset: e.currentTarget.value as BillingFeature['reset'] })}>
            <option value="month">monthly</option>
            <option value="never">never</option>
          </select>
        </label>
        <button type="submit" disabled={act.busy}>
          Add feature
        </button>
      </form>
    </Section>
  )
}

/** A plan as the editor holds it: every field of a new plan, filled. */
type PlanForm = Required<BillingPlanCreate>

const planForm = (p?: BillingPlan): PlanForm =>
  p
    ? {
        key: p.key,
        name: p.name,
        description: p.description,
        isDefault: p.isDefault,
        public: p.public,
        trialDays: p.trialDays,
        prices: p.prices,
        entitlements: p.entitlements,
      }
    : { key: '', name: '', description: '', isDefault: false, public: false, trialDays: 0, prices: [], entitlements: [] }

/** What a plan grants, in words: "chat.messages 100 (allow overage)", "exports", "api.calls unlimited". */
const grantText = (e: BillingPlanEntitlement) =>
  `${e.feature}${e.enabled === false ? ' off' : e.limit == null ? '' : ` ${e.limit}`}${e.overage === 'allow' ? ' (overage allowed)' : ''}`

function Plans({ load, features }: { load: { data?: { items: BillingPlan[] }; error?: string; reload: () => void }; features: BillingFeature[] }) {
  const { error, reload } = load
  const plans = load.data?.items ?? []
  const [editing, setEditing] = useState<{ form: PlanForm; existing: boolean } | null>(null)
  const act = useAction()
  const save = async (e: Event) => {
    e.preventDefault()
    if (!editing) return
    const { key, ...rest } = editing.form
    const ok = await act.run(() =>
      data(editing.existing ? client.api.billing.plans({ key }).patch(rest) : client.api.billing.plans.post({ key: key.trim(), ...rest })),
    )
    if (ok) {
      setEditing(null)
      reload()
    }
  }
  const remove = async (p: BillingPlan) => {
    if (!(await ask(`Delete the plan “${p.name}” (${p.key})?`, 'Delete plan'))) return
    if (await act.run(() => data(client.api.billing.plans({ key: p.key }).delete()))) reload()
  }
  return (
    <Section title="Plans">
      <ErrorNote error={error ?? act.error} />
      <table>
        <thead>
          <tr>
            <th>Plan</th>
            <th>Grants</th>
            <th>Prices</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {plans.map((p) => (
            <tr key={p.key}>
              <td>
                {p.name} <code>{p.key}</code>
                {p.isDefault && (
                  <>
                    {' '}
                    <span class="badge good">default</span>
                  </>
                )}
                {p.trialDays > 0 && (
                  <>
                    <br />
                    <small class="muted">{p.trialDays}-day trial</small>
                  </>
                )}
              </td>
              <td>{p.entitlements.length ? p.entitlements.map(grantText).join(', ') : <span class="muted">nothing beyond the built-in features</span>}</td>
              <td>{p.prices.length ? p.prices.map((x) => `${(x.amount / 100).toFixed(2)} ${x.currency.toUpperCase()}/${x.interval}`).join(', ') : '—'}</td>
              <td class="keep">
                <button type="button" class="secondary" aria-label={`Edit plan ${p.key}`} onClick={() => setEditing({ form: planForm(p), existing: true })}>
                  Edit
                </button>{' '}
                <button type="button" class="danger" aria-label={`Delete plan ${p.key}`} onClick={() => void remove(p)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ListState
        load={load}
        count={plans.length}
        empty="No plans yet: every customer has the built-in features without limit. Press New plan to limit or sell them."
      />
      {editing ? (
        <PlanEditor
          key={editing.form.key || 'new'}
          form={editing.form}
          existing={editing.existing}
          features={features}
          busy={act.busy}
          onChange={(form) => setEditing({ ...editing, form })}
          onSubmit={save}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <p>
          <button type="button" onClick={() => setEditing({ form: planForm(), existing: false })}>
            New plan
          </button>
        </p>
      )}
    </Section>
  )
}

function PlanEditor({
  form,
  existing,
  features,
  busy,
  onChange,
  onSubmit,
  onCancel,
}: {
  form: PlanForm
  existing: boolean
  features: BillingFeature[]
  busy: boolean
  onChange: (form: PlanForm) => void
  onSubmit: (e: Event) => void
  onCancel: () => void
}) {
  const grant = (key: string) => form.entitlements.find((e) => e.feature === key)
  const setGrant = (key: string, next: BillingPlanEntitlement | null) =>
    onChange({ ...form, entitlements: [...form.entitlements.filter((e) => e.feature !== key), ...(next ? [next] : [])] })
  const setPrice = (i: number, next: BillingPrice | null) =>
    onChange({ ...form, prices: next ? form.prices.map((p, j) => (j === i ? next : p)) : form.prices.filter((_, j) => j !== i) })
  return (
    <form class="stack" onSubmit={onSubmit} aria-label={existing ? `Plan ${form.key}` : 'New plan'}>
      <label>
        Plan key{' '}
        <input
          required
          disabled={existing}
          pattern="[a-z0-9]+([._\-][a-z0-9]+)*"
          value={form.key}
          onInput={(e) => onChange({ ...form, key: e.currentTarget.value })}
          placeholder="pro"
        />
      </label>
      <label>
        Plan name <input required value={form.name} onInput={(e) => onChange({ ...form, name: e.currentTarget.value })} />
      </label>
      <label>
        Description <input value={form.description} onInput={(e) => onChange({ ...form, description: e.currentTarget.value })} />
      </label>
      <label class="check">
        <input type="checkbox" checked={form.isDefault} onChange={(e) => onChange({ ...form, isDefault: e.currentTarget.checked })} /> Default plan (every
        customer without a subscription or assignment)
      </label>
      <label class="check">
        <input type="checkbox" checked={form.public} onChange={(e) => onChange({ ...form, public: e.currentTarget.checked })} /> Public (listed in the price
        list, GET /billing/catalogue)
      </label>
      <label>
        Trial days{' '}
        <input type="number" min={0} max={365} value={form.trialDays} onInput={(e) => onChange({ ...form, trialDays: Number(e.currentTarget.value) || 0 })} />
      </label>
      <table aria-label="What the plan grants">
        <thead>
          <tr>
            <th>Feature</th>
            <th>Granted</th>
            <th>Limit</th>
            <th>Past the limit</th>
          </tr>
        </thead>
        <tbody>
          {features.map((f) => {
            // A built-in feature the plan does not name is granted without limit.
            const g = grant(f.key) ?? (f.builtIn ? { feature: f.key } : undefined)
            return (
              <tr key={f.key}>
                <td>
                  {f.name} <code>{f.key}</code>
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Grant ${f.key}`}
                    checked={!!g && g.enabled !== false}
                    onChange={(e) => setGrant(f.key, e.currentTarget.checked ? { feature: f.key } : f.builtIn ? { feature: f.key, enabled: false } : null)}
                  />
                </td>
                <td>
                  {f.type !== 'boolean' && g && g.enabled !== false && (
                    <input
                      type="number"
                      min={0}
                      aria-label={`Limit of ${f.key}`}
                      placeholder="no limit"
                      value={g.limit ?? ''}
                      onInput={(e) => setGrant(f.key, { ...g, limit: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
                    />
                  )}
                </td>
                <td>
                  {f.type !== 'boolean' && g && g.enabled !== false && g.limit != null && (
                    <select
                      aria-label={`Past the limit of ${f.key}`}
                      value={g.overage ?? 'block'}
                      onChange={(e) => setGrant(f.key, { ...g, overage: e.currentTarget.value as 'block' | 'allow' })}
                    >
                      <option value="block">refuse (402)</option>
                      <option value="allow">allow and count</option>
                    </select>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
      <fieldset>
        <legend>Prices (for Stripe Checkout)</legend>
        {form.prices.map((p, i) => (
          <div class="inline" key={i}>
            <label>
              Amount in cents{' '}
              <input type="number" min={0} required value={p.amount} onInput={(e) => setPrice(i, { ...p, amount: Number(e.currentTarget.value) || 0 })} />
            </label>
            <label>
              Currency <input required maxLength={3} value={p.currency} onInput={(e) => setPrice(i, { ...p, currency: e.currentTarget.value.toLowerCase() })} />
            </label>
            <label>
              Every{' '}
              <select value={p.interval} onChange={(e) => setPrice(i, { ...p, interval: e.currentTarget.value as 'month' | 'year' })}>
                <option value="month">month</option>
                <option value="year">year</option>
              </select>
            </label>
            <label>
              Stripe price id <input value={p.stripePriceId ?? ''} onInput={(e) => setPrice(i, { ...p, stripePriceId: e.currentTarget.value || undefined })} />
            </label>
            <button type="button" class="secondary" onClick={() => setPrice(i, null)}>
              Remove price
            </button>
          </div>
        ))}
        <button
          type="button"
          class="secondary"
          onClick={() => onChange({ ...form, prices: [...form.prices, { amount: 0, currency: 'usd', interval: 'month' }] })}
        >
          Add price
        </button>
      </fieldset>
      <div class="row-actions">
        <button type="submit" disabled={busy}>
          {existing ? 'Save plan' : 'Create plan'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
