import { apiError, createClient } from '@ecobase/client'

// 1. One client for the service. Start the service with this app's origin allowed:
//    CORS_ORIGINS=http://localhost:5173 npm start
export const client = createClient({ baseUrl: import.meta.env.VITE_ECOBASE_URL ?? 'http://localhost:3000' })

// 2. Sign up (or client.login({ email, password })): the client keeps and refreshes the tokens.
export async function signUp(name: string, email: string, password: string) {
  const res = await client.register({ name, email, password })
  if (res.error) throw apiError(res)
  return res.data.user
}

// 3. An organization brings its first ecosystem (`main`); from now on requests act in it
//    (the client sends it as X-Ecosystem-Id).
export async function createOrganization(name: string, slug: string) {
  const res = await client.api.registry.organizations.post({ name, slug })
  if (res.error) throw apiError(res)
  client.setEcosystem(res.data.ecosystem.id)
  return res.data.ecosystem
}

// 4. A customer of the ecosystem, known by your own id for them.
export async function createCustomer(externalId: string, name: string) {
  const res = await client.api.customer.resolve.post({ externalId, name })
  if (res.error) throw apiError(res)
  return res.data.customerId
}

// 5. A chat reply, streamed token by token.
export async function chat(message: string, onToken: (text: string) => void) {
  const conversation = await client.api.chat.conversations.post({ title: 'Hello' })
  if (conversation.error) throw apiError(conversation)
  for await (const event of client.chat.send(conversation.data.id, { message })) {
    if (event.event === 'token') onToken(event.data.text)
    else if (event.event === 'error') throw new Error(event.data.message)
  }
}

// 6. A file, uploaded straight to the object store with progress.
export async function uploadFile(file: File, onProgress: (percent: number) => void) {
  const res = await client.upload(file, { onProgress: (p) => p.phase === 'upload' && onProgress(Math.round((100 * p.loaded) / p.total)) })
  if (res.error) throw res.error
  return res.data.attachment
}

// 7. A table's changes, live: each insert, update and delete of the ecosystem's documents.
export async function watchDocuments(onChange: (line: string) => void, signal: AbortSignal) {
  for await (const event of client.realtime.subscribe(['data/documents'], { signal })) {
    if (event.event === 'change')
      onChange('record' in event.data ? `${event.data.op}: ${event.data.record.title}` : `${event.data.op === 'delete' ? 'deleted' : 'left'} ${event.data.id}`)
  }
}

export async function createDocument(title: string) {
  const res = await client.api.data.documents.post({ title })
  if (res.error) throw apiError(res)
  return res.data
}
