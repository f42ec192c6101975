import { useState } from 'preact/hooks'
import type { AdminUser } from '../../client/index'
import { client, data } from '../api'
import { ask, ErrorNote, ListState, Pager, Section, useAction, useLoad, when, SearchBox } from '../ui'

export const PEOPLE_PATH = '#/people'
const PAGE_SIZE = 20
const METHODS: Record<AdminUser['secondFactor']['methods'][number], string> = { totp: 'authenticator app', passkey: 'passkey' }

/** Whether an account's two-step verification is on, in the words the console uses for it everywhere (Team, People). */
export const twoStep = (verified: boolean) => (verified ? 'Verified' : 'Password only')

/**
 * Every account of the instance, for platform admins: search by e-mail or name, each one's
 * two-step verification (how, and the recovery codes left), and the reset of an account whose
 * owner lost both the device and the recovery codes.
 */
export function People() {
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  const list = useLoad(() => data(client.api.auth.admin.users.get({ query: { q: q.trim() || undefined, page, pageSize: PAGE_SIZE } })), [q, page])
  // Your own factors are managed on the Second factors page: a reset here would also end this session.
  const me = useLoad(() => data(client.api.auth.me.get()), [])
  const act = useAction()

  const reset = async (account: AdminUser) => {
    const question =
      `Reset two-step verification of ${account.email}? Their authenticator apps, passkeys and recovery codes are removed, ` +
      'every session of theirs ends, and the account is e-mailed about it. They sign in with their password and can set up two-step verification again.'
    if (!(await ask(question, 'Reset'))) return
    if (await act.run(() => data(client.api.auth.admin.users({ id: account.id }).factors.delete()))) list.reload()
  }

  return (
    <div class="team-page">
      <Section title="People">
        <p class="muted">Every account of this instance. Reset two-step verification for someone who lost both their device and their recovery codes.</p>
        <SearchBox
          value={q}
          placeholder="e-mail or name"
          onSearch={(next) => {
            setQ(next)
            setPage(1)
          }}
        />
        <ErrorNote error={list.error} />
        <ErrorNote error={act.error} />
        <table>
          <thead>
            <tr>
              <th>Account</th>
              <th>Two-step verification</th>
              <th class="phone-hide">Last sign-in</th>
              <th class="phone-hide">Since</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((a) => (
              <tr key={a.id}>
                <td>
                  {a.name} {a.platformAdmin && <span class="badge">platform admin</span>}
                  <br />
                  <small class="muted">{a.email}</small>
                </td>
                <td>
                  {twoStep(a.secondFactor.verified)}
                  {a.secondFactor.verified && (
                    <>
                      <br />
                      <small class="muted">
                        {a.secondFactor.methods.map((m) => METHODS[m]).join(', ')}; {a.secondFactor.recoveryCodesLeft} recovery codes left
                      </small>
                    </>
                  )}
                </td>
                <td class="phone-hide">{when(a.lastSignInAt)}</td>
                <td class="phone-hide">{when(a.createdAt)}</td>
                <td class="keep actions">
                  {/* Only once it is known whose row is yours: a Reset there would end your own session. */}
                  {!me.data ? null : a.id === me.data.id ? (
                    <a href="#/security">Yours: Second factors</a>
                  ) : (
                    a.secondFactor.verified && (
                      <button
                        type="button"
                        class="danger"
                        disabled={act.busy}
                        onClick={() => void reset(a)}
                        aria-label={`Reset two-step verification of ${a.email}`}
                      >
                        Reset
                      </button>
                    )
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.items.length} empty={q ? 'No account matches.' : 'No accounts.'} />
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
    </div>
  )
}
