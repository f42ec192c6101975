import type { AuthMethodSetting } from '../../client/index'
import { client, data } from '../api'
import { ErrorNote, ListState, Section, useAction, useLoad } from '../ui'

const ABOUT: Record<string, string> = {
  password: 'E-mail and password. Disabled: no new registrations; existing accounts still sign in, so administrators cannot lock themselves out.',
}

/** The instance's sign-in methods; platform administrators turn them on and off (others see the API's refusal). */
export function SignInSettings() {
  const list = useLoad(() => data(client.api.settings['auth-methods'].get()), [])
  const me = useLoad(() => data(client.api.auth.me.get()), [])
  const act = useAction()
  const admin = me.data?.capabilities.includes('admin')
  const toggle = async (m: AuthMethodSetting) => {
    if (await act.run(() => data(client.api.settings['auth-methods']({ method: m.method }).put({ enabled: !m.enabled })))) list.reload()
  }
  return (
    <div class="team-page">
      <Section title="Sign-in methods">
        {me.data && !admin && <p class="muted">Only platform administrators change these settings; you can read them.</p>}
        <ErrorNote error={list.error ?? me.error} />
        <ErrorNote error={act.error} />
        <table>
          <thead>
            <tr>
              <th>Method</th>
              <th class="keep">Status</th>
              <th>About</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((m) => (
              <tr key={m.method}>
                <td>
                  <code>{m.method}</code>
                </td>
                <td class="keep" data-testid={`method-${m.method}`}>
                  {m.enabled ? 'enabled' : 'disabled'}
                </td>
                <td>{ABOUT[m.method] ?? ''}</td>
                <td class="keep actions">
                  <button
                    type="button"
                    class={m.enabled ? 'danger' : undefined}
                    disabled={act.busy}
                    onClick={() => void toggle(m)}
                    aria-label={`${m.enabled ? 'Disable' : 'Enable'} ${m.method} sign-in`}
                  >
                    {m.enabled ? 'Disable' : 'Enable'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.length} empty="This instance offers no sign-in method to turn on or off." />
      </Section>
    </div>
  )
}
