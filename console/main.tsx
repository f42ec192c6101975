import { render } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { RegistryEcosystem, RegistryOrganization, User } from '../client/index'
import { client, currentEcosystem, data, message, pickEcosystem } from './api'
import { GROUPS, type PageEntry } from './nav'
import { passkeysSupported, pickPasskey } from './passkeys'
import { CustomerDetail, Customers } from './pages/customers'
import { ENGAGEMENT_AREA_PAGES } from './pages/engagement-area'
import { Backups } from './pages/backups'
import { OVERVIEW_PATH, Overview } from './pages/overview'
import { PEOPLE_PATH, People } from './pages/people'
import { PLAYGROUND_PATH, Playground } from './pages/playground'
import { Billing } from './pages/billing'
import { LOGS_PAGES } from './pages/logs'
import { Realtime } from './pages/realtime'
import { Security } from './pages/security'
import { Storage } from './pages/storage'
import { TABLES_PATH, Tables } from './pages/tables'
import { DOCUMENTS_PATH, Documents, Notes, NOTES_PATH } from './pages/documents'
import { TEAM_AREA_PAGES } from './pages/team-area'
import { Tokens } from './pages/tokens'
import { ErrorNote, useAction } from './ui'
import './styles.css'

const PAGES: PageEntry[] = [
  { path: OVERVIEW_PATH, label: 'Overview', group: 'Overview', ecosystem: true, page: Overview },
  { path: '#/customers', label: 'Customers', group: 'People', ecosystem: true, page: Customers },
  { path: TABLES_PATH, label: 'Tables', group: 'Data', ecosystem: true, page: Tables },
  { path: DOCUMENTS_PATH, label: 'Documents', group: 'Data', ecosystem: true, page: Documents },
  { path: NOTES_PATH, label: 'Notes', group: 'Data', ecosystem: true, page: Notes },
  { path: '#/storage', label: 'Storage', group: 'Data', ecosystem: true, page: Storage },
  { path: '#/realtime', label: 'Realtime', group: 'Data', ecosystem: true, page: Realtime },
  ...TEAM_AREA_PAGES,
  { path: PEOPLE_PATH, label: 'People', group: 'People', ecosystem: false, admin: true, page: People },
  { path: PLAYGROUND_PATH, label: 'Chat playground', group: 'AI', ecosystem: true, page: Playground },
  ...ENGAGEMENT_AREA_PAGES,
  { path: '#/billing', label: 'Plans and features', group: 'Billing', ecosystem: true, page: Billing },
  { path: '#/security', label: 'Second factors', group: 'Security and settings', ecosystem: false, page: Security },
  { path: '#/tokens', label: 'API tokens', group: 'Security and settings', ecosystem: false, page: Tokens },
  { path: '#/backups', label: 'Backups', group: 'Security and settings', ecosystem: false, page: Backups },
  ...LOGS_PAGES,
]

const THEME = 'ecobase.console.theme'
const systemDark = () => matchMedia('(prefers-color-scheme: dark)').matches
/** The theme the toggle chose (kept in localStorage), else the system's. */
const chosenTheme = (): 'light' | 'dark' | null => {
  const kept = localStorage.getItem(THEME)
  return kept === 'light' || kept === 'dark' ? kept : null
}
const applyTheme = (theme: 'light' | 'dark' | null) => {
  if (theme) document.documentElement.dataset.theme = theme
  else delete document.documentElement.dataset.theme
}
applyTheme(chosenTheme())

/** Dark mode follows the system until toggled; the choice is remembered. */
function ThemeToggle() {
  const effective = () => (chosenTheme() ?? (systemDark() ? 'dark' : 'light')) === 'dark'
  const [dark, setDark] = useState(effective)
  useEffect(() => {
    // Until toggled, the system's changes show (and the button says so).
    const media = matchMedia('(prefers-color-scheme: dark)')
    const follow = () => setDark(effective())
    media.addEventListener('change', follow)
    return () => media.removeEventListener('change', follow)
  }, [])
  const toggle = () => {
    const next = dark ? 'light' : 'dark'
    localStorage.setItem(THEME, next)
    applyTheme(next)
    setDark(!dark)
  }
  return (
    <button type="button" class="theme" aria-pressed={dark} onClick={toggle}>
      Dark mode
    </button>
  )
}

function useHash(): [string, (path: string) => void] {
  const [hash, setHash] = useState(location.hash || OVERVIEW_PATH)
  useEffect(() => {
    const onChange = () => setHash(location.hash || OVERVIEW_PATH)
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return [hash, (path) => (location.hash = path)]
}

/** Signing in, or on a fresh instance (no account yet) creating the first account, which becomes its admin. */
function SignIn({ onSignedIn, firstAccount }: { onSignedIn: (user: User) => void; firstAccount: boolean }) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const { error, busy, run } = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    void run(async () => onSignedIn((await data(firstAccount ? client.register({ name, email, password }) : client.login({ email, password }))).user))
  }
  /** A passkey instead of the password: any this device holds for the service (the options name no account). */
  const withPasskey = () =>
    void run(async () => {
      const options = await data(client.api.auth.passkeys.login.options.post({}))
      const result = await data(client.api.auth.passkeys.login.verify.post({ response: await pickPasskey(options) }))
      // As after the second-factor step: the refresh token is in the cookie the answer set.
      client.setTokens({ token: result.token, refreshToken: null })
      onSignedIn(result.user)
    })
  return (
    <main class="signin">
      <h1>Ecobase Console</h1>
      <form onSubmit={submit}>
        {firstAccount && (
          <>
            <h2>Create the first account</h2>
            <p>This instance has no account yet. The first one administers it.</p>
            <label>
              Name <input autocomplete="name" required maxLength={255} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </label>
          </>
        )}
        <label>
          E-mail <input type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password{' '}
          <input
            type="password"
            autocomplete={firstAccount ? 'new-password' : 'current-password'}
            required
            minLength={firstAccount ? 8 : undefined}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          {firstAccount ? (busy ? 'Creating…' : 'Create account') : busy ? 'Signing in…' : 'Sign in'}
        </button>
        {!firstAccount && passkeysSupported() && (
          <button type="button" disabled={busy} onClick={withPasskey}>
            Sign in with a passkey
          </button>
        )}
        <ErrorNote error={error} />
      </form>
    </main>
  )
}

/**
 * An account with a second factor signed in with its password (`aal1`): everything but this step
 * is refused until a code from its authenticator app, a recovery code or one of its passkeys raises
 * the session.
 */
function SecondFactor({ hasPasskey, onVerified, onCancel }: { hasPasskey: boolean; onVerified: (user: User) => void; onCancel: () => void }) {
  const [code, setCode] = useState('')
  const { error, busy, run } = useAction()
  const verified = async (call: ReturnType<typeof client.api.auth.mfa.verify.post>) => {
    const result = await data(call)
    // The refresh token stays in the cookie the answer set; the page keeps only the access token.
    client.setTokens({ token: result.token, refreshToken: null })
    onVerified(await data(client.api.auth.me.get()))
  }
  const submit = (e: Event) => {
    e.preventDefault()
    const entered = code.trim()
    void run(() => verified(client.api.auth.mfa.verify.post(/^\d{6}$/.test(entered) ? { code: entered } : { recoveryCode: entered })))
  }
  const withPasskey = () =>
    void run(async () => {
      const passkey = await pickPasskey(await data(client.api.auth.mfa.verify.options.post()))
      await verified(client.api.auth.mfa.verify.post({ passkey }))
    })
  return (
    <main class="signin">
      <h1>Ecobase Console</h1>
      <form onSubmit={submit}>
        <h2>Second factor</h2>
        <p>Enter the 6-digit code from your authenticator app, or one of your recovery codes{hasPasskey ? ', or use one of your passkeys' : ''}.</p>
        <label>
          Code <input autocomplete="one-time-code" inputMode="text" required maxLength={20} value={code} onInput={(e) => setCode(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Verify'}
        </button>
        {hasPasskey && passkeysSupported() && (
          <button type="button" disabled={busy} onClick={withPasskey}>
            Use a passkey
          </button>
        )}
        <button type="button" class="link" onClick={onCancel}>
          Sign in as someone else
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  )
}

/** An account in no organization yet: its first organization, which brings its main ecosystem. */
function FirstOrganization({ onCreated }: { onCreated: (organization: RegistryOrganization, ecosystem: RegistryEcosystem) => void }) {
  const [name, setName] = useState('')
  const [slug, setSlug] = useState('')
  const { error, busy, run } = useAction()
  const submit = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const made = await data(client.api.registry.organizations.post({ name, slug }))
      onCreated(made.organization, made.ecosystem)
    })
  }
  return (
    <form class="first-organization" onSubmit={submit}>
      <h2>Create an organization</h2>
      <p>
        Your customers, data and settings live in an organization’s ecosystems; it starts with one, <code>main</code>.
      </p>
      <label>
        Organization name <input required maxLength={255} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Slug{' '}
        <input required pattern="[a-z0-9][a-z0-9_\-]{1,63}" title="2–64 of a–z, 0–9, _ and -" value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create organization'}
      </button>
      <ErrorNote error={error} />
    </form>
  )
}

/** `/` (outside a text field) focuses the page's search box, where it has one. */
function useSlashToSearch() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || target?.closest('input, textarea, select, [contenteditable]')) return
      const search = document.querySelector<HTMLInputElement>('main input[type="search"]')
      if (!search) return
      e.preventDefault()
      search.focus()
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [])
}

function Shell({ user, onSignedOut }: { user: User; onSignedOut: () => void }) {
  const [hash, go] = useHash()
  useSlashToSearch()
  const [orgs, setOrgs] = useState<RegistryOrganization[]>([])
  const [ecosystems, setEcosystems] = useState<RegistryEcosystem[]>([])
  const [ecosystem, setEcosystem] = useState<string | null>(currentEcosystem())
  const [organization, setOrganization] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)

  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    Promise.all([
      data(client.api.registry.organizations.get({ query: { pageSize: 100 } })),
      data(client.api.registry.ecosystems.get({ query: { pageSize: 100 } })),
    ]).then(
      ([o, e]) => {
        setOrgs(o.items)
        setEcosystems(e.items)
        // The remembered pick if it is still reachable, else the only ecosystem there is.
        const picked = e.items.find((x) => x.id === currentEcosystem()) ?? (e.items.length === 1 ? e.items[0] : undefined)
        choose(picked?.id ?? null)
        setOrganization(picked?.organizationId ?? o.items[0]?.id ?? null)
        setLoaded(true)
      },
      (err) => setError(message(err)),
    )
  }, [])

  const choose = (id: string | null) => {
    pickEcosystem(id)
    setEcosystem(id)
  }
  const created = (org: RegistryOrganization, eco: RegistryEcosystem) => {
    setOrgs([...orgs, org])
    setEcosystems([...ecosystems, eco])
    setOrganization(org.id)
    choose(eco.id)
  }
  const signOut = async () => {
    await client.logout()
    // The next person to sign in on this tab starts without this one's ecosystem.
    pickEcosystem(null)
    onSignedOut()
  }
  // Phones: the sections are behind the Menu button, closed again on every move to a page.
  const [menu, setMenu] = useState(false)
  useEffect(() => setMenu(false), [hash])
  const inOrg = ecosystems.filter((e) => e.organizationId === organization)
  const pages = user.capabilities.includes('admin') ? PAGES : PAGES.filter((p) => !p.admin)
  const page = pages.find((p) => hash.startsWith(p.path)) ?? pages[0]!
  const detail = /^#\/customers\/([\w-]+)/.exec(hash)?.[1]
  return (
    <>
      <header>
        <strong class="brand">Ecobase Console</strong>
        <button type="button" class="menu" aria-expanded={menu} aria-controls="sections" onClick={() => setMenu(!menu)}>
          Menu
        </button>
        <label>
          Organization{' '}
          <select
            value={organization ?? ''}
            onChange={(e) => {
              setOrganization(e.currentTarget.value)
              choose(null)
            }}
          >
            {orgs.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Ecosystem{' '}
          <select value={ecosystem ?? ''} onChange={(e) => choose(e.currentTarget.value || null)}>
            <option value="">Choose…</option>
            {inOrg.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </select>
        </label>
        <span class="who">{user.email}</span>
        <ThemeToggle />
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <div class="layout">
        <nav id="sections" class={menu ? 'sidebar open' : 'sidebar'} aria-label="Sections">
          {GROUPS.map((group) => {
            const entries = pages.filter((p) => p.group === group)
            return entries.length === 0 ? null : (
              <div key={group}>
                <h3 id={`nav-${group}`}>{group}</h3>
                <ul aria-labelledby={`nav-${group}`}>
                  {entries.map((p) => (
                    <li key={p.path}>
                      <a href={p.path} aria-current={p === page ? 'page' : undefined} onClick={() => setMenu(false)}>
                        {p.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            )
          })}
        </nav>
        <main>
          <ErrorNote error={error} />
          {page.ecosystem && loaded && orgs.length === 0 ? (
            <FirstOrganization onCreated={created} />
          ) : page.ecosystem && !ecosystem ? (
            <p>Choose an ecosystem above.</p>
          ) : detail ? (
            <CustomerDetail key={`${ecosystem}:${detail}`} id={detail} go={go} />
          ) : (
            <page.page key={page.ecosystem ? ecosystem : page.path} />
          )}
        </main>
      </div>
    </>
  )
}

type Me = User & { aal: 'aal1' | 'aal2'; mfa: { enabled: boolean; factors: { type: 'totp' | 'passkey' }[] } }

function App() {
  const [user, setUser] = useState<Me | null | undefined>(undefined)
  const [firstAccount, setFirstAccount] = useState(false)
  const me = async () => setUser((await data(client.api.auth.me.get())) as Me)
  useEffect(() => {
    // A reload restores the session from the httpOnly refresh cookie; no token is stored in the page.
    client.refresh().then(
      async (ok) => {
        if (ok) return me()
        setFirstAccount((await data(client.api.auth['first-run'].get())).firstAccount)
        setUser(null)
      },
      () => setUser(null),
    )
  }, [])
  const signOut = async () => {
    await client.logout()
    setUser(null)
  }
  if (user === undefined) return <p class="loading">Loading…</p>
  if (!user) return <SignIn firstAccount={firstAccount} onSignedIn={() => void me()} />
  if (user.mfa.enabled && user.aal === 'aal1')
    return <SecondFactor hasPasskey={user.mfa.factors.some((f) => f.type === 'passkey')} onVerified={(u) => setUser(u as Me)} onCancel={() => void signOut()} />
  return <Shell user={user} onSignedOut={() => setUser(null)} />
}

render(<App />, document.getElementById('app')!)
