import { useEffect } from 'preact/hooks'
import { bytes, client, data } from '../api'
import { ask, ErrorNote, Section, useAction, useLoad, when } from '../ui'

/**
 * The bytes of a backup archive. Not through the typed client: it reads a gzip answer as text.
 * The access token goes in the header (a plain link would carry none), refreshed once if it expired.
 */
async function archive(id: string): Promise<Blob> {
  const get = () => fetch(`/system/backups/${id}/download`, { headers: { authorization: `Bearer ${client.getTokens()?.token ?? ''}` } })
  let res = await get()
  if (res.status === 401 && (await client.refresh())) res = await get()
  if (!res.ok) throw new Error(`download failed (${res.status})`)
  return res.blob()
}

/** Backups of this instance (platform admins): the schedule the environment set, back up now, download, delete. */
export function Backups() {
  const settings = useLoad(() => data(client.api.system.backups.settings.get()), [])
  const list = useLoad(() => data(client.api.system.backups.get({ query: { pageSize: 50 } })), [])
  const { error, busy, run } = useAction()
  const running = list.data?.items.some((b) => b.status === 'running') ?? false
  // A backup is a queued job: follow it until it is done.
  useEffect(() => {
    if (!running) return
    const timer = setTimeout(list.reload, 1000)
    return () => clearTimeout(timer)
  }, [running, list.data])

  const start = () =>
    run(async () => {
      await data(client.api.system.backups.post())
      list.reload()
    })
  const download = (id: string) =>
    run(async () => {
      const link = document.createElement('a')
      link.href = URL.createObjectURL(await archive(id))
      link.download = `ecobase-backup-${id}.tar.gz`
      link.click()
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000)
    })
  const remove = async (id: string, createdAt: string) => {
    if (!(await ask(`Delete the backup of ${when(createdAt)} and its archive?`, 'Delete backup'))) return
    void run(async () => {
      await data(client.api.system.backups({ id }).delete())
      list.reload()
    })
  }

  const s = settings.data
  return (
    <Section title="Backups">
      <ErrorNote error={error ?? settings.error ?? list.error} />
      {s && (
        <p data-testid="backup-settings">
          {s.available
            ? `${s.schedule ? `Scheduled (${s.schedule}, BACKUP_SCHEDULE)` : 'Only on request (no BACKUP_SCHEDULE)'}; the last ${s.keep} complete ones are kept, ${s.target === 's3' ? 'in the bucket' : 'in DATA_DIR/backups'}.`
            : 'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump or your provider’s snapshots; `npx ecobase backup` archives the server key and local files.'}
        </p>
      )}
      {s?.available && <p><button type="button" disabled={busy || running} onClick={() => void start()}>Back up now</button></p>}
      <table>
        <thead><tr><th>Taken</th><th>Status</th><th>Size</th><th>Completed</th><th class="keep"><span class="sr">Actions</span></th></tr></thead>
        <tbody>
          {list.data?.items.map((b) => (
            <tr key={b.id}>
              <td>{when(b.createdAt)}</td>
              <td>{b.status}{b.error ? `: ${b.error}` : ''}</td>
              <td>{b.sizeBytes === null ? '—' : bytes(b.sizeBytes)}</td>
              <td>{when(b.completedAt)}</td>
              <td class="keep">
                {b.status === 'complete' && <button type="button" aria-label={`Download the backup of ${when(b.createdAt)}`} onClick={() => void download(b.id)}>Download</button>}{' '}
                <button type="button" class="danger" aria-label={`Delete the backup of ${when(b.createdAt)}`} onClick={() => void remove(b.id, b.createdAt)}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.items.length === 0 && <p>No backups yet.</p>}
    </Section>
  )
}
