import { useState } from 'preact/hooks'
import { bytes, client, data, message } from '../api'
import { ErrorNote, ListState, Section, UsageBar, useLoad } from '../ui'
import { CustomerFiles } from './customer-files'

/**
 * Your files in the ecosystem (as its team member's customer record), usage against quota, and uploads
 * with progress; a customer's files for the ecosystem's admins; the quota overrides.
 */
export function Storage() {
  const usage = useLoad(() => data(client.api.usage.storage.get()), [])
  const files = useLoad(() => data(client.api.storage.attachments.get({ query: { pageSize: 50 } })), [])
  const overrides = useLoad(() => data(client.api.usage.storage.quotas.get({ query: { pageSize: 50 } })), [])
  const [progress, setProgress] = useState<{ phase: string; share: number } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [stop, setStop] = useState<AbortController | null>(null)

  const upload = async (e: Event) => {
    const input = e.currentTarget as HTMLInputElement
    const file = input.files?.[0]
    if (!file) return
    setError(null)
    const controller = new AbortController()
    setStop(controller)
    const { error } = await client.upload(file, {
      signal: controller.signal,
      onProgress: ({ phase, loaded, total }) => setProgress({ phase, share: total ? loaded / total : 1 }),
    })
    setStop(null)
    setProgress(null)
    input.value = ''
    if (error) setError(message(error))
    usage.reload()
    files.reload()
  }

  return (
    <>
      <Section title="Storage">
        <ErrorNote error={usage.error} />
        {usage.data && (
          <>
            <UsageBar used={usage.data.usageBytes} total={usage.data.quotaBytes} label="Storage used" />
            <p class="usage-text">
              <span data-testid="usage">{bytes(usage.data.usageBytes)}</span> of {bytes(usage.data.quotaBytes)} used, {bytes(usage.data.availableBytes)} free
            </p>
          </>
        )}
        <label class="upload">
          Upload a file <input type="file" onChange={upload} disabled={!!stop} />
        </label>
        {progress && (
          <p aria-live="polite">
            {progress.phase === 'hash' ? 'Reading' : 'Uploading'}: <progress max={1} value={progress.share} /> {Math.round(progress.share * 100)}%{' '}
            {stop && (
              <button type="button" onClick={() => stop.abort()}>
                Cancel
              </button>
            )}
          </p>
        )}
        <ErrorNote error={error ?? files.error} />
        <table>
          <thead>
            <tr>
              <th>File</th>
              <th>Type</th>
              <th>Size</th>
              <th>Status</th>
              <th>Uploaded</th>
            </tr>
          </thead>
          <tbody>
            {files.data?.items.map((a) => (
              <tr key={a.id}>
                <td>{a.filename}</td>
                <td>{a.contentType}</td>
                <td>{bytes(a.sizeBytes)}</td>
                <td>{a.status}</td>
                <td>{new Date(a.createdAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={files} count={files.data?.items.length} empty="No files yet: upload one above." />
      </Section>
      <CustomerFiles />
      <Section title="Quota overrides">
        <ErrorNote error={overrides.error} />
        <table>
          <thead>
            <tr>
              <th>Customer</th>
              <th>Quota</th>
              <th>Changed</th>
            </tr>
          </thead>
          <tbody>
            {overrides.data?.items.map((o) => (
              <tr key={o.userId}>
                <td>
                  <a href={`#/customers/${o.userId}`}>
                    <code>{o.userId}</code>
                  </a>
                </td>
                <td>{bytes(o.quotaBytes)}</td>
                <td>{new Date(o.updatedAt).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={overrides} count={overrides.data?.items.length} empty="Every customer has the default quota." />
      </Section>
    </>
  )
}
