import { useEffect } from 'preact/hooks'
import { bytes, client, data } from '../api'
import { ask, ErrorNote, Section, saveFile, useAction, useLoad, when } from '../ui'

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

/** How long ago, in the largest whole unit: `3 h`, `2 d`. */
export function age(seconds: number): string {
  if (seconds < 120) return `${seconds} s`
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`
  if (seconds < 172_800) return `${Math.floor(seconds / 3600)} h`
  return `${Math.floor(seconds / 86_400)} d`
}

/** The last complete backup's age in words, or that there is none. */
export function lastGood(s: { lastCompleteAt: string | null; lastCompleteAgeSeconds: number | null }): string {
  return s.lastCompleteAt && s.lastCompleteAgeSeconds !== null ? `${age(s.lastCompleteAgeSeconds)} ago (${when(s.lastCompleteAt)})` : 'none yet'
}

/** Backups of this instance (platform admins): the schedule the environment set, encryption, the last good one's age, back up now, download, delete. */
export function Backups() {
  const list = useLoad(() => data(client.api.system.backups.get({ query: { pageSize: 50 } })), [])
  // Read again with the list: the last good backup's age changes when one completes.
  const settings = useLoad(() => data(client.api.system.backups.settings.get()), [list.data])
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
  const download = (id: string, encrypted: boolean) =>
    run(async () => {
      const href = URL.createObjectURL(await archive(id))
      saveFile(href, `ecobase-backup-${id}.tar.gz${encrypted ? '.enc' : ''}`)
      setTimeout(() => URL.revokeObjectURL(href), 60_000)
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
            : 'The database is PostgreSQL (DATABASE_URL) and pg_dump is not on the server’s PATH: install the PostgreSQL client, or back the database up with your provider’s snapshots, and DATA_DIR/auth-secret and DATA_DIR/objects with your file backups.'}
        </p>
      )}
      {s && (
        <p data-testid="backup-encryption">
          {s.encrypted
            ? 'Encrypted (BACKUP_ENCRYPTION_KEY): verify and restore need the key.'
            : 'Not encrypted: an archive holds the server key in clear (set BACKUP_ENCRYPTION_KEY).'}
        </p>
      )}
      {s && (
        <p data-testid="backup-last-good" class={s.lastCompleteAgeSeconds === null || s.lastCompleteAgeSeconds > 2 * 86_400 ? 'error' : undefined}>
          Last complete backup: {lastGood(s)}
        </p>
      )}
      {s?.available && (
        <p>
          <button type="button" disabled={busy || running} onClick={() => void start()}>
            Back up now
          </button>
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Taken</th>
            <th>Status</th>
            <th>Size</th>
            <th>Completed</th>
            <th class="keep">
              <span class="sr">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((b) => (
            <tr key={b.id}>
              <td>{when(b.createdAt)}</td>
              <td>
                {b.status}
                {b.error ? `: ${b.error}` : ''}
                {b.encrypted ? ' · encrypted' : ''}
                {b.restoredAt ? ` · this instance was restored from it ${when(b.restoredAt)}` : ''}
              </td>
              <td>{b.sizeBytes === null ? '—' : bytes(b.sizeBytes)}</td>
              <td>{when(b.completedAt)}</td>
              <td class="keep">
                {b.status === 'complete' && (
                  <button type="button" aria-label={`Download the backup of ${when(b.createdAt)}`} onClick={() => void download(b.id, b.encrypted)}>
                    Download
                  </button>
                )}{' '}
                <button type="button" class="danger" aria-label={`Delete the backup of ${when(b.createdAt)}`} onClick={() => void remove(b.id, b.createdAt)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.items.length === 0 && <p>No backups yet.</p>}
    </Section>
  )
}
