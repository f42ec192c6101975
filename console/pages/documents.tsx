import { useState } from 'preact/hooks'
import type { DataDocumentBlock, DataDocumentBlockCreate, UserdataNote } from '../../client/index'
import { client, data } from '../api'
import { positionAfter } from '../positions'
import { ask, ErrorNote, FormActions, ListState, Pager, Section, useAction, useLoad, useSubpath, when } from '../ui'

export const DOCUMENTS_PATH = '#/documents'
export const NOTES_PATH = '#/notes'
const PAGE_SIZE = 20
type BlockType = DataDocumentBlockCreate['blockType']
const BLOCK_TYPES: BlockType[] = ['paragraph', 'heading', 'list_item', 'code', 'quote']
/** The ecosystem's documents (every customer's, as an admin sees them), each with its blocks in order. */
export function Documents() {
  const id = useSubpath(DOCUMENTS_PATH)
  return <div class="eng-page">{id ? <DocumentDetail key={id} id={id} /> : <DocumentList />}</div>
}

function DocumentList() {
  const [page, setPage] = useState(1)
  const [q, setQ] = useState('')
  const list = useLoad(
    () => data(client.api.data.documents.get({ query: { page, pageSize: PAGE_SIZE, sort: '-updatedAt', title: q ? `ilike.*${q}*` : undefined } })),
    [page, q],
  )
  const [title, setTitle] = useState('')
  const act = useAction()
  const create = async (e: Event) => {
    e.preventDefault()
    await act.run(async () => {
      const made = await data(client.api.data.documents.post({ title: title.trim() }))
      location.hash = `${DOCUMENTS_PATH}/${made.id}`
    })
  }
  return (
    <>
      <Section title="Documents">
        <label>
          Search titles{' '}
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.currentTarget.value.trim())
              setPage(1)
            }}
          />
        </label>
        <ErrorNote error={list.error} />
        <table>
          <thead>
            <tr>
              <th>Title</th>
              <th>Customer</th>
              <th>Changed</th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={`${DOCUMENTS_PATH}/${d.id}`}>{d.title}</a>
                </td>
                <td>
                  <a href={`#/customers/${d.customerId}`}>
                    <code>{d.customerId.slice(0, 8)}</code>
                  </a>
                </td>
                <td>{when(d.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState
          load={list}
          count={list.data?.items.length}
          empty={q ? 'No document matches.' : 'No documents yet: create one below, or your customers’ apps add theirs.'}
        />
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
      </Section>
      <Section title="New document">
        <form class="inline" onSubmit={create}>
          <label>
            Document title <input required maxLength={500} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={act.busy}>
            Create document
          </button>
        </form>
        <ErrorNote error={act.error} />
      </Section>
    </>
  )
}

function DocumentDetail({ id }: { id: string }) {
  const doc = useLoad(() => data(client.api.data.documents({ id }).get()), [id])
  const blocks = useLoad(() => data(client.api.data.document_blocks.get({ query: { documentId: `eq.${id}`, sort: 'position', pageSize: 100 } })), [id])
  const [title, setTitle] = useState<string | null>(null)
  const [adding, setAdding] = useState<{ blockType: BlockType; content: string }>({ blockType: 'paragraph', content: '' })
  const act = useAction()
  const rename = (e: Event) => {
    e.preventDefault()
    if (title === null) return
    void act.run(async () => {
      await data(client.api.data.documents({ id }).patch({ title: title.trim() }))
      setTitle(null)
      doc.reload()
    })
  }
  const add = (e: Event) => {
    e.preventDefault()
    void act.run(async () => {
      const last = blocks.data?.items.at(-1)?.position
      // The server gives the block to the document's customer, whoever the document belongs to.
      await data(client.api.data.document_blocks.post({ documentId: id, blockType: adding.blockType, position: positionAfter(last), content: adding.content }))
      setAdding({ ...adding, content: '' })
      blocks.reload()
    })
  }
  const remove = async () => {
    if (!(await ask(`Delete the document “${doc.data?.title}” and its blocks?`, 'Delete document'))) return
    if (await act.run(() => data(client.api.data.documents({ id }).delete()))) location.hash = DOCUMENTS_PATH
  }
  const d = doc.data
  return (
    <>
      <p>
        <a href={DOCUMENTS_PATH}>← Documents</a>
      </p>
      <ErrorNote error={doc.error ?? blocks.error ?? act.error} />
      {d && (
        <Section title={d.title}>
          <p class="muted">
            Customer{' '}
            <a href={`#/customers/${d.customerId}`}>
              <code>{d.customerId}</code>
            </a>{' '}
            · changed {when(d.updatedAt)}
          </p>
          <form class="inline" onSubmit={rename}>
            <label>
              Document title <input required maxLength={500} value={title ?? d.title} onInput={(e) => setTitle(e.currentTarget.value)} />
            </label>
            <button type="submit" disabled={act.busy || title === null}>
              Rename
            </button>
            <button type="button" class="danger" onClick={() => void remove()}>
              Delete document
            </button>
          </form>
        </Section>
      )}
      <Section title="Blocks">
        <ol class="blocks">
          {blocks.data?.items.map((b) => (
            <BlockItem key={`${b.id}:${b.updatedAt}`} block={b} onChanged={blocks.reload} />
          ))}
        </ol>
        <ListState load={blocks} count={blocks.data?.items.length} empty="No blocks yet: write the first one below." />
        <form class="stack" aria-label="Add a block" onSubmit={add}>
          <p class="muted">A block belongs to the document’s customer, like the rest of the document.</p>
          <label>
            Block type{' '}
            <select value={adding.blockType} onChange={(e) => setAdding({ ...adding, blockType: e.currentTarget.value as BlockType })}>
              {BLOCK_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Block text <textarea rows={3} value={adding.content} onInput={(e) => setAdding({ ...adding, content: e.currentTarget.value })} />
          </label>
          <div>
            <button type="submit" disabled={act.busy}>
              Add block
            </button>
          </div>
        </form>
      </Section>
    </>
  )
}

/** A block: its type and text, edited in place, or deleted. */
function BlockItem({ block: b, onChanged }: { block: DataDocumentBlock; onChanged: () => void }) {
  const [draft, setDraft] = useState<{ blockType: BlockType; content: string } | null>(null)
  const act = useAction()
  const save = (e: Event) => {
    e.preventDefault()
    if (draft)
      void act.run(async () => {
        await data(client.api.data.document_blocks({ id: b.id }).patch(draft))
        onChanged()
      })
  }
  const remove = async () => {
    if (!(await ask(`Delete this ${b.blockType} block?`, 'Delete block'))) return
    if (await act.run(() => data(client.api.data.document_blocks({ id: b.id }).delete()))) onChanged()
  }
  return (
    <li class={`block ${b.blockType}`}>
      {draft ? (
        <form class="stack" aria-label={`Block ${b.position}`} onSubmit={save}>
          <label>
            Block type{' '}
            <select value={draft.blockType} onChange={(e) => setDraft({ ...draft, blockType: e.currentTarget.value as BlockType })}>
              {BLOCK_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Block text <textarea rows={3} value={draft.content} onInput={(e) => setDraft({ ...draft, content: e.currentTarget.value })} />
          </label>
          <div class="row-actions">
            <button type="submit" disabled={act.busy}>
              Save block
            </button>
            <button type="button" class="secondary" onClick={() => setDraft(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <small class="muted">{b.blockType}</small>
          <p>{b.content || <span class="muted">(empty)</span>}</p>
          <div class="row-actions">
            <button type="button" class="secondary" onClick={() => setDraft({ blockType: b.blockType as BlockType, content: b.content })}>
              Edit block
            </button>
            <button type="button" class="danger" onClick={() => void remove()}>
              Delete block
            </button>
          </div>
        </>
      )}
      <ErrorNote error={act.error} />
    </li>
  )
}

/** The ecosystem's notes (every customer's), newest first: search, add, edit, delete. */
export function Notes() {
  const [page, setPage] = useState(1)
  const [q, setQ] = useState('')
  const list = useLoad(
    () => data(client.api.userdata.notes.get({ query: { page, pageSize: PAGE_SIZE, sort: '-occurredAt', title: q ? `ilike.*${q}*` : undefined } })),
    [page, q],
  )
  const [editing, setEditing] = useState<UserdataNote | 'new' | null>(null)
  const act = useAction()
  const remove = async (n: UserdataNote) => {
    if (!(await ask(`Delete the note “${n.title}”?`, 'Delete note'))) return
    if (await act.run(() => data(client.api.userdata.notes({ id: n.id }).delete()))) list.reload()
  }
  return (
    <div class="eng-page">
      <Section title="Notes">
        <label>
          Search titles{' '}
          <input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.currentTarget.value.trim())
              setPage(1)
            }}
          />
        </label>
        <ErrorNote error={list.error ?? act.error} />
        <table>
          <thead>
            <tr>
              <th>Title</th>
              <th>Occurred</th>
              <th>About</th>
              <th class="keep">
                <span class="sr">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.items.map((n) => (
              <tr key={n.id}>
                <td>
                  {n.title}
                  {n.body && (
                    <>
                      <br />
                      <small class="muted">{n.body.length > 80 ? `${n.body.slice(0, 80)}…` : n.body}</small>
                    </>
                  )}
                </td>
                <td>{when(n.occurredAt)}</td>
                <td>
                  {n.subjectTable ? (
                    <code>
                      {n.subjectTable} {n.subjectId?.slice(0, 8)}
                    </code>
                  ) : (
                    '—'
                  )}
                </td>
                <td class="keep">
                  <button type="button" class="secondary" aria-label={`Edit note ${n.title}`} onClick={() => setEditing(n)}>
                    Edit
                  </button>{' '}
                  <button type="button" class="danger" aria-label={`Delete note ${n.title}`} onClick={() => void remove(n)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <ListState load={list} count={list.data?.items.length} empty={q ? 'No note matches.' : 'No notes yet: press New note to write one.'} />
        {list.data && <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={setPage} />}
        {editing ? (
          <NoteEditor
            key={editing === 'new' ? 'new' : editing.id}
            note={editing === 'new' ? null : editing}
            onDone={(saved) => {
              setEditing(null)
              if (saved) list.reload()
            }}
          />
        ) : (
          <p>
            <button type="button" onClick={() => setEditing('new')}>
              New note
            </button>
          </p>
        )}
      </Section>
    </div>
  )
}

function NoteEditor({ note, onDone }: { note: UserdataNote | null; onDone: (saved: boolean) => void }) {
  const [form, setForm] = useState({ title: note?.title ?? '', body: note?.body ?? '' })
  const { error, busy, run } = useAction()
  const save = (e: Event) => {
    e.preventDefault()
    void run(async () => {
      const body = { title: form.title.trim(), body: form.body }
      await data(note ? client.api.userdata.notes({ id: note.id }).patch(body) : client.api.userdata.notes.post(body))
      onDone(true)
    })
  }
  return (
    <form class="stack" aria-label={note ? `Note ${note.title}` : 'New note'} onSubmit={save}>
      <label>
        Note title <input required maxLength={500} value={form.title} onInput={(e) => setForm({ ...form, title: e.currentTarget.value })} />
      </label>
      <label>
        Note text <textarea rows={4} value={form.body} onInput={(e) => setForm({ ...form, body: e.currentTarget.value })} />
      </label>
      <FormActions busy={busy} save={note ? 'Save note' : 'Create note'} onCancel={() => onDone(false)} error={error} />
    </form>
  )
}
