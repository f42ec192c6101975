import { useState } from 'preact/hooks'
import type { TeamMember } from '../../client/index'
import { client, currentEcosystem, data } from '../api'
import { ask, EmptyState, ErrorNote, ListState, Pager, Section, useAction, useLoad, when } from '../ui'
import { twoStep } from './people'

const PAGE_SIZE = 20
const ROLES: TeamMember['role'][] = ['owner', 'admin', 'member']

/**
 * The team of the picked ecosystem's organization: list (with each member's two-step verification), add by
 * e-mail with a role, change a role, remove; and the second factor policy, with who does not meet it.
 */
export function Team() {
  const ecosystem = currentEcosystem()!
  const org = useLoad(async () => {
    const eco = await data(client.api.registry.ecosystems({ id: ecosystem }).get())
    return data(client.api.registry.organizations({ id: eco.organizationId }).get())
  }, [ecosystem])
  const [page, setPage] = useState(1)
  const organizationId = org.data?.id
  const list = useLoad(
    async () => (organizationId ? data(client.api.team.members.get({ query: { organizationId, page, pageSize: PAGE_SIZE } })) : null),
    [organizationId, page],
  )
  const [form, setForm] = useState<{ email: string; role: TeamMember['role'] }>({ email: '', role: 'member' })
  const add = useAction()
  const act = useAction()

  const submit = async (e: Event) => {
    e.preventDefault()
    if (!organizationId) return
    const ok = await add.run(() => data(client.api.team.members.post({ organizationId, email: form.email.trim(), role: form.role })))
    if (ok) {
      setForm({ email: '', role: 'member' })
      list.reload()
    }
  }
  const changeRole = async (m: TeamMember, role: TeamMember['role']) => {
    const ok = await act.run(() => data(client.api.team.members({ id: m.id }).patch({ role })))
    list.reload()
    return ok
  }
  const policy = useAction()
  const setRequireMfa = async (requireMfa: boolean) => {
    if (!organizationId) return
    if (!requireMfa && !(await ask(`Stop requiring a second factor in ${org.data!.name}?`, 'Stop requiring'))) return
    if (await policy.run(() => data(client.api.registry.organizations({ id: organizationId }).policy.patch({ requireMfa })))) org.reload()
  }
  const remove = async (m: TeamMember) => {
    if (!(await ask(`Remove ${m.email} from the team?`, 'Remove'))) return
    if (await act.run(() => data(client.api.team.members({ id: m.id }).delete()))) list.reload()
  }

  return (
    <div class="team-page">
      <Section title={org.data ? `Team of ${org.data.name}` : 'Team'}>
        <ErrorNote error={org.error ?? list.error} />
        <ErrorNote error={act.error} />
        <table>
          <thead>
            <tr>
              <th>Member</th>
              <th class="keep">Role</th>
              <th>Two-step verification</th>
              <th>Since</th>
              <th class="keep actions">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((m) => (
              <MemberRow key={`${m.id}:${m.role}`} member={m} busy={act.busy} onRole={changeRole} onRemove={remove} />
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.items.length} empty="No members." />
        {list.data?.total === 1 && <EmptyState>Only you so far: add a member below, by the e-mail of their Ecobase account.</EmptyState>}
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title="Add a member">
        <p class="muted">The person needs an Ecobase account with this e-mail. Only owners can add owners.</p>
        <form onSubmit={submit} class="inline">
          <label>
            Member e-mail <input type="email" required value={form.email} onInput={(e) => setForm({ ...form, email: e.currentTarget.value })} />
          </label>
          <label>
            Role
            <select value={form.role} onChange={(e) => setForm({ ...form, role: e.currentTarget.value as TeamMember['role'] })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={add.busy || !organizationId}>
            Add member
          </button>
        </form>
        <ErrorNote error={add.error} />
      </Section>
      {org.data && (
        <Section title="Second factor policy">
          <p>
            {org.data.requireMfa
              ? 'Every member must verify a second factor (authenticator app or passkey) before acting in this organization’s ecosystems.'
              : 'Members may act in this organization’s ecosystems with a password alone.'}{' '}
            <span class="muted">
              Owners only, once their own session has verified a second factor. A member’s API tokens act here only while the member has a second factor.
            </span>
          </p>
          {list.data && <Compliance members={list.data.items} required={org.data.requireMfa} partial={list.data.total > list.data.items.length} />}
          <button type="button" disabled={policy.busy} onClick={() => void setRequireMfa(!org.data!.requireMfa)}>
            {org.data.requireMfa ? 'Stop requiring a second factor' : 'Require a second factor'}
          </button>
          <ErrorNote error={policy.error} />
        </Section>
      )}
    </div>
  )
}

/** One member: the role is picked, then saved with its button (arrow keys on a select do not change anyone's role). */
function MemberRow({
  member: m,
  busy,
  onRole,
  onRemove,
}: {
  member: TeamMember
  busy: boolean
  onRole: (m: TeamMember, role: TeamMember['role']) => Promise<boolean>
  onRemove: (m: TeamMember) => void
}) {
  const [role, setRole] = useState(m.role)
  const save = async () => {
    // Refused (e.g. last_owner): the select shows the role the member still has.
    if (!(await onRole(m, role))) setRole(m.role)
  }
  return (
    <tr>
      <td>
        {m.name}
        <br />
        <small class="muted">{m.email}</small>
      </td>
      <td class="keep">
        <select aria-label={`Role of ${m.email}`} value={role} disabled={busy} onChange={(e) => setRole(e.currentTarget.value as TeamMember['role'])}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        {role !== m.role && (
          <button type="button" class="save-role" disabled={busy} onClick={() => void save()} aria-label={`Save role of ${m.email}`}>
            Save
          </button>
        )}
      </td>
      <td>{twoStep(m.mfa)}</td>
      <td>{when(m.createdAt)}</td>
      <td class="keep actions">
        <button type="button" class="danger" disabled={busy} onClick={() => onRemove(m)} aria-label={`Remove ${m.email}`}>
          Remove
        </button>
      </td>
    </tr>
  )
}

/** Who would be (or is) refused under the policy: members whose account has no second factor. */
function Compliance({ members, required, partial }: { members: TeamMember[]; required: boolean; partial: boolean }) {
  const without = members.filter((m) => !m.mfa)
  const shown = partial ? ' (on this page of the list)' : ''
  if (without.length === 0) return <p data-testid="mfa-compliance">Every member has a second factor{shown}.</p>
  return (
    <div data-testid="mfa-compliance">
      <p>
        {required ? 'Out of compliance' : 'Would be refused if you required it'}
        {shown}: these members have no second factor, so neither they nor their API tokens
        {required ? ' can' : ' could'} act in this organization’s ecosystems until they add one.
      </p>
      <ul>
        {without.map((m) => (
          <li key={m.id}>
            {m.name} <small class="muted">{m.email}</small>
          </li>
        ))}
      </ul>
    </div>
  )
}
