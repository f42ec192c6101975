import { useState } from 'preact/hooks'
import type { MfaFactor } from '../../client/index'
import { client, data } from '../api'
import { createPasskey, passkeysSupported } from '../passkeys'
import { ask, EmptyState, ErrorNote, SecretOnce, Section, useAction, useLoad, when } from '../ui'

interface Enrolment {
  factorId: string
  secret: string
  qrSvg: string
}

/**
 * Your account's second factors: authenticator apps (TOTP) added with a QR code and confirmed with a
 * code, passkeys made on this device (they also sign in to the console without a password), and
 * the ten recovery codes, shown once. Adding or removing one needs a session that verified a factor.
 */
export function Security() {
  const me = useLoad(() => data(client.api.auth.me.get()), [])
  const [name, setName] = useState('')
  const [enrolling, setEnrolling] = useState<Enrolment | null>(null)
  const [code, setCode] = useState('')
  const [codes, setCodes] = useState<string[] | null>(null)
  const [passkeyName, setPasskeyName] = useState('')
  const { error, busy, run } = useAction()

  const start = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      setEnrolling(await data(client.api.auth.mfa.totp.post({ name })))
      setCode('')
    })
  }
  const confirm = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const confirmed = await data(client.api.auth.mfa.totp({ id: enrolling!.factorId }).confirm.post({ code: code.trim() }))
      setEnrolling(null)
      setName('')
      if (confirmed.recoveryCodes) setCodes(confirmed.recoveryCodes)
      // Confirming the first factor raised this session to aal2: fresh tokens carry it.
      await client.refresh()
      me.reload()
    })
  }
  const remove = async (f: MfaFactor) => {
    if (!(await ask(`Remove the ${f.type === 'totp' ? 'authenticator app' : 'passkey'} “${f.name}”?`, 'Remove factor'))) return
    void run(async () => {
      await data(f.type === 'passkey' ? client.api.auth.passkeys({ id: f.id }).delete() : client.api.auth.mfa.factors({ id: f.id }).delete())
      me.reload()
    })
  }
  const addPasskey = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const response = await createPasskey(await data(client.api.auth.passkeys.register.options.post()))
      const added = await data(client.api.auth.passkeys.register.verify.post({ response, name: passkeyName.trim() }))
      setPasskeyName('')
      if (added.recoveryCodes) setCodes(added.recoveryCodes)
      await client.refresh()
      me.reload()
    })
  }
  const newCodes = async () => {
    if (!(await ask('Replace your ten recovery codes? The old ones stop working.', 'Replace codes'))) return
    void run(async () => setCodes((await data(client.api.auth.mfa['recovery-codes'].post())).recoveryCodes))
  }

  const factors = me.data?.mfa.factors ?? []
  return (
    <>
      <Section title="Second factors">
        <ErrorNote error={error ?? me.error} />
        <p>
          {me.data?.mfa.enabled ? 'Signing in to this account asks for a second factor.' : 'This account signs in with its password alone.'}{' '}
          <span data-testid="session-assurance">
            Two-step verification in this session: {me.data ? (me.data.aal === 'aal2' ? 'verified' : 'password only') : '…'}.
          </span>
        </p>
        {codes && (
          <SecretOnce
            label="Your recovery codes (each works once, when the authenticator is not at hand). Keep them now: they are not shown again."
            value={codes.join('  ')}
            testId="recovery-codes"
            onDone={() => setCodes(null)}
          />
        )}
        {factors.length === 0 ? (
          <EmptyState>No second factor yet: add an authenticator app or a passkey below.</EmptyState>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Added</th>
                <th>Last used</th>
                <th class="keep">
                  <span class="sr">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {factors.map((f) => (
                <tr key={f.id}>
                  <td>{f.name}</td>
                  <td>{f.type === 'totp' ? 'Authenticator app' : 'Passkey'}</td>
                  <td>{when(f.createdAt)}</td>
                  <td>{when(f.lastUsedAt)}</td>
                  <td class="keep">
                    <button type="button" class="danger" aria-label={`Remove ${f.name}`} onClick={() => void remove(f)}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {me.data?.mfa.enabled && (
          <p>
            <button type="button" onClick={() => void newCodes()}>
              New recovery codes
            </button>
          </p>
        )}
      </Section>
      <Section title="Add an authenticator app">
        {!enrolling ? (
          // Keyed: Preact would otherwise reuse the name field for the code (and keep its attributes).
          <form key="start" class="inline" onSubmit={start}>
            <label>
              Name <input required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} placeholder="Phone" />
            </label>
            <button type="submit" disabled={busy}>
              Start
            </button>
          </form>
        ) : (
          <form key="confirm" class="inline" onSubmit={confirm}>
            <img class="qr" alt="QR code for your authenticator app" src={`data:image/svg+xml;base64,${btoa(enrolling.qrSvg)}`} width={180} height={180} />
            <p>
              Scan it, or type the key: <code data-testid="totp-secret">{enrolling.secret}</code>
            </p>
            <label>
              Code from the app <input autocomplete="one-time-code" required pattern="\d{6}" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
            </label>
            <button type="submit" disabled={busy}>
              Confirm
            </button>
          </form>
        )}
      </Section>
      <Section title="Add a passkey">
        {passkeysSupported() ? (
          <form class="inline" onSubmit={addPasskey}>
            <label>
              Passkey name{' '}
              <input required maxLength={100} value={passkeyName} onInput={(e) => setPasskeyName(e.currentTarget.value)} placeholder="This laptop" />
            </label>
            <button type="submit" disabled={busy}>
              Create passkey
            </button>
          </form>
        ) : (
          <p>This browser cannot create passkeys here (it needs WebAuthn's JSON support: Chrome 129, Firefox 119, Safari 18 or later).</p>
        )}
      </Section>
    </>
  )
}
