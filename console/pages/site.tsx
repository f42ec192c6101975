import { useState } from 'preact/hooks'
import type { SiteService } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Section, useAction, useLoad, when } from '../ui'
import { Badge } from './engagement-ui'

interface Field {
  key: string
  label: string
  type?: 'text' | 'password' | 'number' | 'checkbox' | 'url'
  placeholder?: string
}

/** Each kind's settings (src/modules/site/model.ts): stored sealed, never shown again. */
const KINDS: Record<string, { title: string; hint: string; fields: Field[] }> = {
  smtp: {
    title: 'E-mail (SMTP)',
    hint: 'A URL, or a host (with port, user and password).',
    fields: [
      { key: 'url', label: 'SMTP URL', placeholder: 'smtps://user:pass@smtp.example.com' },
      { key: 'host', label: 'Host', placeholder: 'smtp.example.com' },
      { key: 'port', label: 'Port', type: 'number', placeholder: '587' },
      { key: 'secure', label: 'TLS from the start (port 465)', type: 'checkbox' },
      { key: 'user', label: 'User' },
      { key: 'pass', label: 'Password', type: 'password' },
      { key: 'from', label: 'Sender', placeholder: 'Shop <no-reply@example.com>' },
    ],
  },
  twilio: {
    title: 'SMS (Twilio)',
    hint: 'Account SID and auth token, and a sender number or a messaging service SID.',
    fields: [
      { key: 'accountSid', label: 'Account SID', placeholder: 'AC…' },
      { key: 'authToken', label: 'Auth token', type: 'password' },
      { key: 'from', label: 'Sender number', placeholder: '+15550001111' },
      { key: 'messagingServiceSid', label: 'Messaging service SID', placeholder: 'MG…' },
    ],
  },
  openai: {
    title: 'Models (OpenAI-compatible)',
    hint: 'An API key; a base URL and model when not OpenAI’s.',
    fields: [
      { key: 'apiKey', label: 'API key', type: 'password' },
      { key: 'baseUrl', label: 'Base URL', type: 'url', placeholder: 'https://api.openai.com/v1' },
      { key: 'model', label: 'Model' },
    ],
  },
  webhook: {
    title: 'Webhook',
    hint: 'A URL, and a secret when the receiver wants one.',
    fields: [
      { key: 'url', label: 'URL', type: 'url', placeholder: 'https://example.com/hook' },
      { key: 'secret', label: 'Secret', type: 'password' },
    ],
  },
}

type Values = Record<string, string | boolean>
const EMPTY = { slug: '', kind: 'smtp', enabled: true, values: {} as Values }

/** The settings as the API takes them: empty fields left out, numbers as numbers. */
function config(kind: string, values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of KINDS[kind]?.fields ?? []) {
    const v = values[f.key]
    if (f.type === 'checkbox') {
      if (v) out[f.key] = true
    } else if (typeof v === 'string' && v.trim() !== '') out[f.key] = f.type === 'number' ? Number(v) : v.trim()
  }
  return out
}

/** The ecosystem's provider settings (site services): list, create or replace, delete. */
export function SiteServices() {
  const list = useLoad(() => data(client.api.site.services.get()), [])
  const [form, setForm] = useState(EMPTY)
  const [replacing, setReplacing] = useState<string | null>(null)
  const [note, setNote] = useState<string | null>(null)
  const act = useAction()

  const submit = async (e: Event) => {
    e.preventDefault()
    setNote(null)
    const ok = await act.run(() =>
      data(client.api.site.services({ slug: form.slug }).put({ kind: form.kind, enabled: form.enabled, config: config(form.kind, form.values) })),
    )
    if (ok) {
      setNote(`Service “${form.slug}” saved.`)
      setForm(EMPTY)
      setReplacing(null)
      list.reload()
    }
  }
  const replace = (s: SiteService) => {
    setReplacing(s.slug)
    setNote(null)
    setForm({ slug: s.slug, kind: s.kind, enabled: s.enabled, values: {} })
    requestAnimationFrame(() => document.getElementById('service-form')?.querySelector<HTMLElement>('select, input:not([readonly])')?.focus())
  }
  const remove = (s: SiteService) =>
    act.run(async () => {
      if (!(await ask(`Delete the service “${s.slug}”?`, 'Delete service'))) return
      await data(client.api.site.services({ slug: s.slug }).delete())
      setNote(`Service “${s.slug}” deleted.`)
      list.reload()
    })

  const kind = KINDS[form.kind]
  const setValue = (key: string, value: string | boolean) => setForm({ ...form, values: { ...form.values, [key]: value } })
  return (
    <div class="eng-page">
      <Section title="Site services">
        <p class="muted">
          Providers this ecosystem uses instead of the instance's: e-mail (smtp), SMS (twilio), models (openai), webhook. Their settings are never shown again.
        </p>
        <ErrorNote error={list.error} />
        {note && <p role="status">{note}</p>}
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th class="keep">
                <span class="sr">Actions</span>
              </th>
              <th>Kind</th>
              <th>State</th>
              <th>Settings</th>
              <th>Changed</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((s) => (
              <tr key={s.slug}>
                <td>
                  <code>{s.slug}</code>
                </td>
                <td class="keep">
                  <div class="row-actions">
                    <button type="button" class="secondary" onClick={() => replace(s)} aria-label={`Replace ${s.slug}`}>
                      Replace
                    </button>
                    <button type="button" class="danger" onClick={() => remove(s)} disabled={act.busy} aria-label={`Delete ${s.slug}`}>
                      Delete
                    </button>
                  </div>
                </td>
                <td>{s.kind}</td>
                <td>{s.enabled ? <Badge tone="good">enabled</Badge> : <Badge tone="neutral">disabled</Badge>}</td>
                <td>{s.configKeys.join(', ')}</td>
                <td>{when(s.updatedAt)}</td>
              </tr>
            ))}
            {list.data?.length === 0 && (
              <tr>
                <td colSpan={6}>No services: the instance's providers are used.</td>
              </tr>
            )}
          </tbody>
        </table>
      </Section>
      <Section title={replacing ? `Replace “${replacing}”` : 'New service'}>
        {replacing && <p class="muted">Enter every setting again: the stored ones are not shown.</p>}
        <form id="service-form" onSubmit={submit} class="stack">
          <label>
            Service name{' '}
            <input
              required
              pattern="[a-z0-9][a-z0-9_\-]*"
              maxLength={63}
              title="lower-case letters, digits, - and _"
              readOnly={!!replacing}
              placeholder="mail"
              value={form.slug}
              onInput={(e) => setForm({ ...form, slug: e.currentTarget.value })}
            />
          </label>
          <label>
            Kind{' '}
            <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.currentTarget.value, values: {} })}>
              {Object.entries(KINDS).map(([k, v]) => (
                <option key={k} value={k}>
                  {v.title}
                </option>
              ))}
            </select>
          </label>
          <label class="check">
            <input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.currentTarget.checked })} /> Enabled
          </label>
          {kind && (
            <fieldset key={form.kind}>
              <legend>{kind.title} settings</legend>
              <p class="muted">{kind.hint}</p>
              {kind.fields.map((f) =>
                f.type === 'checkbox' ? (
                  <label key={f.key} class="check">
                    <input type="checkbox" checked={!!form.values[f.key]} onChange={(e) => setValue(f.key, e.currentTarget.checked)} /> {f.label}
                  </label>
                ) : (
                  <label key={f.key}>
                    {f.label}{' '}
                    <input
                      type={(f.type ?? 'text') as 'text'}
                      autocomplete={f.type === 'password' ? 'new-password' : 'off'}
                      placeholder={f.placeholder}
                      value={(form.values[f.key] as string | undefined) ?? ''}
                      onInput={(e) => setValue(f.key, e.currentTarget.value)}
                    />
                  </label>
                ),
              )}
            </fieldset>
          )}
          <div class="row-actions">
            <button type="submit" disabled={act.busy}>
              Save service
            </button>
            {replacing && (
              <button
                type="button"
                class="secondary"
                onClick={() => {
                  setReplacing(null)
                  setForm(EMPTY)
                }}
              >
                Cancel
              </button>
            )}
          </div>
        </form>
        <ErrorNote error={act.error} />
      </Section>
    </div>
  )
}
