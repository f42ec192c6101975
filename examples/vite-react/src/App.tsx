import { useEffect, useState } from 'react'
import { EcobaseError } from '@ecobase/client'
import { chat, createCustomer, createDocument, createOrganization, signUp, uploadFile, watchDocuments } from './ecobase'

/** Each step of the quick start as a button, in order; what each answered is shown under it. */
export function App() {
  const [log, setLog] = useState<string[]>([])
  const [error, setError] = useState<string | null>(null)
  const [reply, setReply] = useState('')
  const [progress, setProgress] = useState(0)
  const [changes, setChanges] = useState<string[]>([])
  const [watching, setWatching] = useState(false)
  const [form, setForm] = useState({ name: 'Ada', email: '', password: '', organization: 'Acme', slug: 'acme' })
  const note = (line: string) => setLog((l) => [...l, line])
  const step = (fn: () => Promise<unknown>) => () => {
    setError(null)
    fn().catch((err: unknown) => setError(err instanceof EcobaseError ? `${err.message} (${err.code})` : String(err)))
  }

  useEffect(() => {
    if (!watching) return
    const stop = new AbortController()
    watchDocuments((line) => setChanges((c) => [...c, line]), stop.signal).catch((err: unknown) => setError(String(err)))
    return () => stop.abort()
  }, [watching])

  return (
    <main style={{ fontFamily: 'system-ui', maxWidth: 640, margin: '2rem auto', display: 'grid', gap: '0.75rem' }}>
      <h1>Ecobase from React</h1>
      <label>
        Name <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </label>
      <label>
        E-mail <input type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
      </label>
      <label>
        Password <input type="password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
      </label>
      <button type="button" onClick={step(async () => note(`signed up as ${(await signUp(form.name, form.email, form.password)).email}`))}>
        1. Sign up
      </button>
      <label>
        Organization <input value={form.organization} onChange={(e) => setForm({ ...form, organization: e.target.value })} />
      </label>
      <label>
        Slug <input value={form.slug} onChange={(e) => setForm({ ...form, slug: e.target.value })} />
      </label>
      <button type="button" onClick={step(async () => note(`working in ecosystem ${(await createOrganization(form.organization, form.slug)).rdid}`))}>
        2. Create the organization
      </button>
      <button type="button" onClick={step(async () => note(`customer ${await createCustomer('customer-1', 'Grace')}`))}>
        3. Create a customer
      </button>
      <button
        type="button"
        onClick={step(async () => {
          setReply('')
          await chat('Hello!', (text) => setReply((r) => r + text))
          note('reply complete')
        })}
      >
        4. Chat
      </button>
      <output aria-label="Reply">{reply}</output>
      <label>
        File{' '}
        <input
          type="file"
          onChange={(e) => {
            const file = e.target.files?.[0]
            if (file) step(async () => note(`uploaded ${(await uploadFile(file, setProgress)).filename}`))()
          }}
        />
      </label>
      <progress aria-label="Upload progress" max={100} value={progress} />
      <button type="button" onClick={() => setWatching(true)} disabled={watching}>
        5. Watch documents
      </button>
      <button type="button" onClick={step(async () => note(`document ${(await createDocument('Trip plan')).id}`))}>
        6. Create a document
      </button>
      <ul aria-label="Changes">
        {changes.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows, so an index names one line for good
          <li key={i}>{c}</li>
        ))}
      </ul>
      <ul aria-label="Log">
        {log.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows, so an index names one line for good
          <li key={i}>{l}</li>
        ))}
      </ul>
      {error && <p role="alert">{error}</p>}
    </main>
  )
}
