import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { RegistryEcosystem, RegistryOrganization, User } from '../client/index'
import { client, currentEcosystem, data, message, pickEcosystem } from './api'
import type { PageEntry } from './nav'
import { CustomerDetail, Customers } from './pages/customers'
import { ENGAGEMENT_AREA_PAGES } from './pages/engagement-area'
import { Storage } from './pages/storage'
import { TEAM_AREA_PAGES } from './pages/team-area'
import { Tokens } from './pages/tokens'
import { ErrorNote, useAction } from './ui'
import './styles.css'

const PAGES: PageEntry[] = [
  { path: '#/customers', label: 'Customers', ecosystem: true, page: Customers },
  { path: '#/storage', label: 'Storage', ecosystem: true, page: Storage },
  ...TEAM_AREA_PAGES,
  ...ENGAGEMENT_AREA_PAGES,
  { path: '#/tokens', label: 'API tokens', ecosystem: false, page: Tokens },
]

function useHash(): [string, (path: string) => void] {
  const [hash, setHash] = useState(location.hash || '#/customers')
  useEffect(() => {
    const onChange = () => setHash(location.hash || '#/customers')
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return [hash, (path) => (location.hash = path)]
}

function SignIn({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { error, busy, run } = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    void run(async () => onSignedIn((await data(client.login({ email, password }))).user))
  }
  return (
    <main class="signin">
      <h1>Ecobase Console</h1>
      <form onSubmit={submit}>
        <label>E-mail <input type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} /></label>
        <label>Password <input type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} /></label>
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
        <ErrorNote error={error} />
      </form>
    </main>
  )
}

function Shell({ user, onSignedOut }: { user: User; onSignedOut: () => void }) {
  const [hash, go] = useHash()
  const [orgs, setOrgs] = useState<RegistryOrganization[]>([])
  const [ecosystems, setEcosystems] = useState<RegistryEcosystem[]>([])
  const [ecosystem, setEcosystem] = useState<string | null>(currentEcosystem())
  const [organization, setOrganization] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    Promise.all([data(client.api.registry.organizations.get({ query: { pageSize: 100 } })), data(client.api.registry.ecosystems.get({ query: { pageSize: 100 } }))]).then(
      ([o, e]) => {
        setOrgs(o.items)
        setEcosystems(e.items)
        const picked = e.items.find((x) => x.id === currentEcosystem())
        setOrganization(picked?.organizationId ?? o.items[0]?.id ?? null)
      },
      (err) => setError(message(err)),
    )
  }, [])

  const choose = (id: string | null) => {
    pickEcosystem(id)
    setEcosystem(id)
  }
  const signOut = async () => {
    await client.logout()
    // The next person to sign in on this tab starts without this one's ecosystem.
    pickEcosystem(null)
    onSignedOut()
  }
  const inOrg = ecosystems.filter((e) => e.organizationId === organization)
  const page = PAGES.find((p) => hash.startsWith(p.path)) ?? PAGES[0]!
  const detail = /^#\/customers\/([\w-]+)/.exec(hash)?.[1]
  return (
    <>
      <header>
        <strong class="brand">Ecobase Console</strong>
        <label>
          Organization{' '}
          <select value={organization ?? ''} onChange={(e) => { setOrganization(e.currentTarget.value); choose(null) }}>
            {orgs.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          </select>
        </label>
        <label>
          Ecosystem{' '}
          <select value={ecosystem ?? ''} onChange={(e) => choose(e.currentTarget.value || null)}>
            <option value="">Choose…</option>
            {inOrg.map((e) => <option key={e.id} value={e.id}>{e.name}</option>)}
          </select>
        </label>
        <span class="who">{user.email}</span>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <nav class="tabs" aria-label="Sections">
        {PAGES.map((p) => <a key={p.path} href={p.path} aria-current={p === page ? 'page' : undefined}>{p.label}</a>)}
      </nav>
      <main>
        <ErrorNote error={error} />
        {page.ecosystem && !ecosystem ? (
          <p>Choose an ecosystem above.</p>
        ) : detail ? (
          <CustomerDetail key={`${ecosystem}:${detail}`} id={detail} go={go} />
        ) : (
          <page.page key={page.ecosystem ? ecosystem : page.path} />
        )}
      </main>
    </>
  )
}

function App() {
  const [user, setUser] = useState<User | null | undefined>(undefined)
  useEffect(() => {
    // A reload restores the session from the httpOnly refresh cookie; no token is stored in the page.
    client.refresh().then(async (ok) => setUser(ok ? await data(client.api.auth.me.get()) : null), () => setUser(null))
  }, [])
  if (user === undefined) return <p class="loading">Loading…</p>
  return user ? <Shell user={user} onSignedOut={() => setUser(null)} /> : <SignIn onSignedIn={setUser} />
}

render(<App />, document.getElementById('app')!)
