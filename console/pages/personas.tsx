import { useState } from 'preact/hooks'
import type { Persona, PersonaService, PersonaServicePage } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, Pager, Section, useAction, useLoad, when } from '../ui'
import { useAutofocus } from './team-kit'

const PAGE_SIZE = 20

/** Persona services (model providers; the API key is write-only) and the personas of the picked ecosystem. */
export function Personas() {
  const [servicePage, setServicePage] = useState(1)
  const services = useLoad(() => data(client.api.persona.services.get({ query: { page: servicePage, pageSize: PAGE_SIZE } })), [servicePage])
  // Every service, for the persona form's picker (at most 100: the API's page limit).
  const allServices = useLoad(() => data(client.api.persona.services.get({ query: { pageSize: 100 } })), [services.data])
  return (
    <div class="team-page">
      <Services list={services} page={servicePage} setPage={setServicePage} />
      <PersonaList services={allServices.data?.items ?? []} />
    </div>
  )
}

function Services({
  list,
  page,
  setPage,
}: {
  list: { data?: PersonaServicePage; error?: string; reload: () => void }
  page: number
  setPage: (p: number) => void
}) {
  const templates = useLoad(() => data(client.api.persona['service-templates'].get()), [])
  const [form, setForm] = useState({ templateId: '', name: '', baseUrl: '', apiKey: '' })
  const [editing, setEditing] = useState<PersonaService | null>(null)
  const create = useAction()
  const act = useAction()
  const template = templates.data?.find((t) => t.id === form.templateId)

  const submit = async (e: Event) => {
    e.preventDefault()
    const ok = await create.run(() =>
      data(
        client.api.persona.services.post({
          templateId: form.templateId || undefined,
          name: form.name.trim() || undefined,
          baseUrl: form.baseUrl.trim() || undefined,
          apiKey: form.apiKey || undefined,
        }),
      ),
    )
    if (ok) {
      setForm({ templateId: '', name: '', baseUrl: '', apiKey: '' })
      list.reload()
    }
  }
  const connect = async (s: PersonaService) => {
    if (await act.run(() => data(client.api.persona.services({ id: s.id }).connect.post()))) list.reload()
  }
  const remove = async (s: PersonaService) => {
    if (!(await ask(`Delete the service ${s.name}? Personas using it fall back to the default service.`, 'Delete service'))) return
    if (await act.run(() => data(client.api.persona.services({ id: s.id }).delete()))) list.reload()
  }

  return (
    <>
      <Section title="Persona services">
        <ErrorNote error={list.error ?? act.error} />
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th class="phone-hide">Base URL</th>
              <th>Provider</th>
              <th>API key</th>
              <th>Connection</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((s) => (
              <tr key={s.id}>
                <td>{s.name}</td>
                <td class="phone-hide">
                  <code>{s.baseUrl}</code>
                </td>
                <td>{s.providerKind}</td>
                <td>{s.hasApiKey ? 'stored' : 'none'}</td>
                <td>
                  {s.connectStatus}
                  {s.connectStatus === 'connected' && (
                    <small class="muted">
                      {' '}
                      ({s.models.length} models, {when(s.lastConnectedAt)})
                    </small>
                  )}
                  {s.connectError && (
                    <>
                      <br />
                      <small class="error">{s.connectError}</small>
                    </>
                  )}
                </td>
                <td class="keep actions">
                  <button type="button" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
                    Edit
                  </button>
                  <button type="button" disabled={act.busy} onClick={() => void connect(s)} aria-label={`Connect ${s.name}`}>
                    Connect
                  </button>
                  <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(s)} aria-label={`Delete ${s.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <p>No persona services yet: personas use the instance's default service.</p>}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      {editing && (
        <EditService
          key={editing.id}
          service={editing}
          onDone={(changed) => {
            setEditing(null)
            if (changed) list.reload()
          }}
        />
      )}
      <Section title="New persona service">
        <form onSubmit={submit} class="inline">
          <label>
            Template
            <select value={form.templateId} onChange={(e) => setForm({ ...form, templateId: e.currentTarget.value })}>
              <option value="">None (OpenAI-compatible URL)</option>
              {templates.data?.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Service name <input value={form.name} placeholder={template?.name ?? ''} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
          </label>
          <label>
            Base URL
            <input
              type="url"
              value={form.baseUrl}
              required={!template || template.baseUrl === null}
              placeholder={template?.baseUrl ?? 'https://api.example.com/v1'}
              onInput={(e) => setForm({ ...form, baseUrl: e.currentTarget.value })}
            />
          </label>
          <label>
            API key{' '}
            <input
              type="password"
              autocomplete="off"
              value={form.apiKey}
              required={!!template?.requiresApiKey}
              onInput={(e) => setForm({ ...form, apiKey: e.currentTarget.value })}
            />
          </label>
          <button type="submit" disabled={create.busy}>
            Add service
          </button>
        </form>
        {template && (
          <p class="muted">
            Documentation:{' '}
            <a href={template.documentationUrl} rel="noreferrer" target="_blank">
              {template.documentationUrl}
            </a>
          </p>
        )}
        <ErrorNote error={create.error ?? templates.error} />
      </Section>
    </>
  )
}

function EditService({ service, onDone }: { service: PersonaService; onDone: (changed: boolean) => void }) {
  const [form, setForm] = useState({ name: service.name, baseUrl: service.baseUrl, apiKey: '', removeKey: false })
  const first = useAutofocus<HTMLInputElement>()
  const save = useAction()
  const submit = async (e: Event) => {
    e.preventDefault()
    const ok = await save.run(() =>
      data(
        client.api.persona.services({ id: service.id }).patch({
          name: form.name.trim() !== service.name ? form.name.trim() : undefined,
          baseUrl: form.baseUrl.trim() !== service.baseUrl ? form.baseUrl.trim() : undefined,
          // The key is write-only: blank keeps the stored one, the box removes it.
          apiKey: form.removeKey ? null : form.apiKey || undefined,
        }),
      ),
    )
    if (ok) onDone(true)
  }
  return (
    <Section title={`Edit service ${service.name}`}>
      <form onSubmit={submit} class="stack">
        <label>
          Service name <input required value={form.name} ref={first} onInput={(e) => setForm({ ...form, name: e.currentTarget.value })} />
        </label>
        <label>
          Base URL <input type="url" required value={form.baseUrl} onInput={(e) => setForm({ ...form, baseUrl: e.currentTarget.value })} />
        </label>
        <label>
          New API key {service.hasApiKey ? '(blank keeps the stored key)' : ''}
          <input
            type="password"
            autocomplete="off"
            value={form.apiKey}
            disabled={form.removeKey}
            onInput={(e) => setForm({ ...form, apiKey: e.currentTarget.value })}
          />
        </label>
        {service.hasApiKey && (
          <label class="check">
            <input type="checkbox" checked={form.removeKey} onChange={(e) => setForm({ ...form, removeKey: e.currentTarget.checked })} /> Remove the stored API
            key
          </label>
        )}
        <div class="row">
          <button type="submit" disabled={save.busy}>
            Save service
          </button>
          <button type="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
        <ErrorNote error={save.error} />
      </form>
    </Section>
  )
}

const VISIBILITIES: Persona['visibility'][] = ['private', 'unlisted', 'public']

function PersonaList({ services }: { services: PersonaService[] }) {
  const [page, setPage] = useState(1)
  const list = useLoad(() => data(client.api.persona.personas.get({ query: { page, pageSize: PAGE_SIZE } })), [page])
  const [editing, setEditing] = useState<Persona | 'new' | null>(null)
  const act = useAction()
  const serviceName = (id: string | null) => (id ? (services.find((s) => s.id === id)?.name ?? id) : 'default')
  const remove = async (p: Persona) => {
    if (!(await ask(`Delete the persona ${p.name}? Its memories are deleted with it.`, 'Delete persona'))) return
    if (await act.run(() => data(client.api.persona.personas({ id: p.id }).delete()))) list.reload()
  }
  return (
    <>
      <Section title="Personas">
        <ErrorNote error={list.error ?? act.error} />
        <table>
          <thead>
            <tr>
              <th>Name</th>
              <th class="phone-hide">Slug</th>
              <th>Visibility</th>
              <th>Service</th>
              <th>Model</th>
              <th>Updated</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((p) => (
              <tr key={p.id}>
                <td>{p.name}</td>
                <td class="phone-hide">
                  <code>{p.slug}</code>
                </td>
                <td>{p.visibility}</td>
                <td>{serviceName(p.serviceId)}</td>
                <td>{p.model ?? 'service default'}</td>
                <td>{when(p.updatedAt)}</td>
                <td class="keep actions">
                  <button type="button" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                    Edit
                  </button>
                  <button type="button" class="danger" disabled={act.busy} onClick={() => void remove(p)} aria-label={`Delete ${p.name}`}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <p>No personas yet.</p>}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
        {editing === null && (
          <p>
            <button type="button" onClick={() => setEditing('new')}>
              New persona
            </button>
          </p>
        )}
      </Section>
      {editing && (
        <PersonaForm
          key={editing === 'new' ? 'new' : editing.id}
          persona={editing === 'new' ? null : editing}
          services={services}
          onDone={(changed) => {
            setEditing(null)
            if (changed) list.reload()
          }}
        />
      )}
    </>
  )
}

function PersonaForm({ persona, services, onDone }: { persona: Persona | null; services: PersonaService[]; onDone: (changed: boolean) => void }) {
  const [form, setForm] = useState({
    slug: persona?.slug ?? '',
    name: persona?.name ?? '',
    description: persona?.description ?? '',
    visibility: persona?.visibility ?? ('private' as Persona['visibility']),
    serviceId: persona?.serviceId ?? '',
    model: persona?.model ?? '',
    modelPrompt: persona?.modelPrompt ?? '',
    searchCommunity: persona?.searchCommunity ?? false,
  })
  const save = useAction()
  const first = useAutofocus<HTMLInputElement>()
  const service = services.find((s) => s.id === form.serviceId)
  const submit = async (e: Event) => {
    e.preventDefault()
    const body = {
      slug: form.slug.trim(),
      name: form.name.trim(),
      description: form.description.trim() || null,
      visibility: form.visibility,
      serviceId: form.serviceId || null,
      model: form.model.trim() || null,
      modelPrompt: form.modelPrompt,
      searchCommunity: form.searchCommunity,
    }
    const ok = await save.run(() =>
      persona ? data(client.api.persona.personas({ id: persona.id }).patch(body)) : data(client.api.persona.personas.post(body)),
    )
    if (ok) onDone(true)
  }
  const set = (patch: Partial<typeof form>) => setForm({ ...form, ...patch })
  return (
    <Section title={persona ? `Edit persona ${persona.name}` : 'New persona'}>
      <form onSubmit={submit} class="stack">
        <div class="row">
          <label>
            Persona name <input required value={form.name} ref={first} onInput={(e) => set({ name: e.currentTarget.value })} />
          </label>
          <label>
            Slug{' '}
            <input
              required
              pattern="[a-z0-9][a-z0-9_\-]{1,63}"
              title="2 to 64 lower-case letters, digits, - and _"
              value={form.slug}
              onInput={(e) => set({ slug: e.currentTarget.value })}
            />
          </label>
          <label>
            Visibility
            <select value={form.visibility} onChange={(e) => set({ visibility: e.currentTarget.value as Persona['visibility'] })}>
              {VISIBILITIES.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        </div>
        <label>
          Description <input value={form.description} onInput={(e) => set({ description: e.currentTarget.value })} />
        </label>
        <div class="row">
          <label>
            Service
            <select value={form.serviceId} onChange={(e) => set({ serviceId: e.currentTarget.value })}>
              <option value="">Default service</option>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Model
            <input list="persona-models" value={form.model} placeholder="service default" onInput={(e) => set({ model: e.currentTarget.value })} />
            <datalist id="persona-models">
              {service?.models
                .map((m) => (typeof m === 'string' ? m : m.id))
                .map((id) => (
                  <option key={id} value={id} />
                ))}
            </datalist>
          </label>
        </div>
        <label>
          System prompt <textarea value={form.modelPrompt} rows={5} onInput={(e) => set({ modelPrompt: e.currentTarget.value })} />
        </label>
        <label class="check">
          <input type="checkbox" checked={form.searchCommunity} onChange={(e) => set({ searchCommunity: e.currentTarget.checked })} /> Chat search may read
          community threads
        </label>
        <div class="row">
          <button type="submit" disabled={save.busy}>
            {persona ? 'Save persona' : 'Create persona'}
          </button>
          <button type="button" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
        <ErrorNote error={save.error} />
      </form>
    </Section>
  )
}
