import { useState } from 'preact/hooks'
import type { Customer, StorageAttachment } from '../../client/index'
import { bytes, client, data } from '../api'
import { ask, EmptyState, ErrorNote, ListState, Pager, Section, saveFile, UsageBar, useAction, useLoad, when } from '../ui'

const PAGE_SIZE = 20
/** How much of a text file its preview shows. */
const PREVIEW_BYTES = 4096

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase()
const isImage = (contentType: string) => mediaType(contentType).startsWith('image/')
const isText = (contentType: string) => {
  const type = mediaType(contentType)
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json')
}
const nameOf = (c: Customer) => c.name ?? c.email ?? c.externalId ?? c.id

/**
 * A new presigned GET of a customer's file. Asked for again at each Download and Show text: the one
 * the list loaded stops working after STORAGE_URL_TTL_SECONDS (15 minutes by default), and a page
 * left open that long answered 403 on both until it was reloaded.
 */
const downloadUrl = (customerId: string, id: string) => data(client.api.storage.customers({ customerId }).attachments({ id }).download.get()).then((d) => d.url)

/** The first PREVIEW_BYTES of the file at `url` as text, asked for as a byte range (both stores answer 206). */
async function firstText(url: string): Promise<string> {
  const res = await fetch(url, { headers: { range: `bytes=0-${PREVIEW_BYTES - 1}` } })
  if (!res.ok) throw new Error(`The file could not be read (HTTP ${res.status})`)
  const head = new Uint8Array(await res.arrayBuffer())
  const total = Number(res.headers.get('content-range')?.split('/')[1] ?? head.byteLength)
  const text = new TextDecoder().decode(head.subarray(0, PREVIEW_BYTES))
  return total > PREVIEW_BYTES ? `${text}\n…` : text
}

/**
 * Ecosystem admins browse a customer's files: pick the customer, see sizes, types, image thumbnails
 * and the start of text files, download, and delete after an in-page confirmation.
 */
export function CustomerFiles() {
  const [q, setQ] = useState('')
  const [picked, setPicked] = useState<Customer | null>(null)
  const customerId = picked?.id ?? ''
  const [page, setPage] = useState(1)
  const [preview, setPreview] = useState<{ id: string; filename: string; text?: string; error?: string } | null>(null)
  const customers = useLoad(() => data(client.api.customer.customers.get({ query: { q: q || undefined, pageSize: 50 } })), [q])
  const usage = useLoad(() => (customerId ? data(client.api.usage.storage.customers({ userId: customerId }).get()) : Promise.resolve(null)), [customerId])
  const files = useLoad(
    () => (customerId ? data(client.api.storage.customers({ customerId }).attachments.get({ query: { page, pageSize: PAGE_SIZE } })) : Promise.resolve(null)),
    [customerId, page],
  )
  const { error, run } = useAction()
  // The picked customer stays in the list while a search that leaves them out is typed.
  const found = customers.data?.items ?? []
  const choices = picked && !found.some((c) => c.id === picked.id) ? [picked, ...found] : found

  const pick = (id: string) => {
    setPicked(choices.find((c) => c.id === id) ?? null)
    setPage(1)
    setPreview(null)
  }
  const showText = async (file: StorageAttachment) => {
    setPreview({ id: file.id, filename: file.filename })
    try {
      setPreview({ id: file.id, filename: file.filename, text: await firstText(await downloadUrl(customerId, file.id)) })
    } catch (err) {
      setPreview({ id: file.id, filename: file.filename, error: String(err) })
    }
  }
  const download = (file: StorageAttachment) => run(async () => saveFile(await downloadUrl(customerId, file.id), file.filename))
  const remove = async (file: StorageAttachment) => {
    const question = `Delete ${file.filename} (${bytes(file.sizeBytes)}) of ${picked ? nameOf(picked) : customerId}? It stops counting toward their quota at once.`
    if (!(await ask(question, 'Delete file'))) return
    const done = await run(() => data(client.api.storage.customers({ customerId }).attachments({ id: file.id }).delete()))
    if (!done) return
    if (preview?.id === file.id) setPreview(null)
    files.reload()
    usage.reload()
  }

  return (
    <Section title="Customers’ files">
      <div class="picker">
        <label>
          Find a customer <input type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} placeholder="e-mail, external id or name" />
        </label>
        <span>
          <label for="storage-customer">Customer</label>{' '}
          <select id="storage-customer" value={customerId} onChange={(e) => pick(e.currentTarget.value)}>
            <option value="">Pick a customer…</option>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {nameOf(c)}
              </option>
            ))}
          </select>
        </span>
      </div>
      <ErrorNote error={customers.error ?? usage.error ?? files.error ?? error} />
      {!customerId ? (
        <EmptyState>Pick a customer to see their files, with previews of images and text.</EmptyState>
      ) : (
        <>
          {usage.data && (
            <>
              <UsageBar used={usage.data.usageBytes} total={usage.data.quotaBytes} label="Customer’s storage used" />
              <p class="usage-text">
                <span data-testid="customer-usage">{bytes(usage.data.usageBytes)}</span> of {bytes(usage.data.quotaBytes)} used
              </p>
            </>
          )}
          <table aria-label="Customer’s files">
            <thead>
              <tr>
                <th>File</th>
                <th>Preview</th>
                <th>Type</th>
                <th>Size</th>
                <th>Status</th>
                <th>Uploaded</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {files.data?.items.map((file) => (
                <FileRow key={file.id} customerId={customerId} file={file} onText={showText} onDownload={download} onDelete={remove} />
              ))}
            </tbody>
          </table>
          <ListState load={files} count={files.data?.items.length} empty="This customer has no files." />
          {files.data && files.data.total > PAGE_SIZE && <Pager page={page} pageSize={PAGE_SIZE} total={files.data.total} onPage={setPage} />}
          {preview && (
            <figure class="text-preview">
              <figcaption>
                {preview.filename}: the first {bytes(PREVIEW_BYTES)}{' '}
                <button type="button" class="secondary" onClick={() => setPreview(null)}>
                  Close
                </button>
              </figcaption>
              <ErrorNote error={preview.error} />
              {preview.text === undefined ? !preview.error && <p class="muted">Loading…</p> : <pre>{preview.text}</pre>}
            </figure>
          )}
        </>
      )}
    </Section>
  )
}

/** One file: the download URL loaded with it draws the thumbnail; Show text and Download ask for a new one. */
function FileRow({
  customerId,
  file,
  onText,
  onDownload,
  onDelete,
}: {
  customerId: string
  file: StorageAttachment
  onText: (file: StorageAttachment) => void
  onDownload: (file: StorageAttachment) => void
  onDelete: (file: StorageAttachment) => void
}) {
  const ready = file.status === 'ready'
  const url = useLoad(() => (ready ? downloadUrl(customerId, file.id) : Promise.resolve(null)), [customerId, file.id, ready])
  return (
    <tr>
      <td>{file.filename}</td>
      <td>
        {url.data && isImage(file.contentType) && <img class="thumb" src={url.data} alt={`Preview of ${file.filename}`} />}
        {url.data && isText(file.contentType) && (
          <button type="button" class="secondary" onClick={() => onText(file)}>
            Show text
          </button>
        )}
        {url.error && <span class="error">{url.error}</span>}
      </td>
      <td>{file.contentType}</td>
      <td>{bytes(file.sizeBytes)}</td>
      <td>{file.status}</td>
      <td>{when(file.createdAt)}</td>
      <td class="row-actions">
        {url.data && (
          <a
            href={url.data}
            download={file.filename}
            onClick={(e) => {
              e.preventDefault()
              onDownload(file)
            }}
          >
            Download
          </a>
        )}{' '}
        <button type="button" class="danger" onClick={() => onDelete(file)}>
          Delete
        </button>
      </td>
    </tr>
  )
}
