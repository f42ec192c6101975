import { afterAll, beforeAll } from 'bun:test'
import type { ChatEvent } from '../../src/modules/chat/model'
import { type FakeOpenAi, startFakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

export interface ChatActor {
  org: Provisioned
  owner: RegisteredUser
  customer: { token: string; customerId: string }
  /** Credentials of the customer, for h.call. */
  auth: { token: string }
}

/**
 * A test file's harness on a fake OpenAI-compatible service (`OPENAI_BASE_URL`, and `env`), with
 * a customer `a`: made before the file's tests, closed after them.
 */
export function chatSuite(env: Record<string, string> = {}): { fake: FakeOpenAi; h: Harness; a: ChatActor } {
  const suite = {} as { fake: FakeOpenAi; h: Harness; a: ChatActor }
  beforeAll(async () => {
    suite.fake = startFakeOpenAi()
    suite.h = await createHarness({ OPENAI_BASE_URL: suite.fake.url, ...env })
    suite.a = await chatActor(suite.h)
  })
  afterAll(async () => {
    await suite.h.close()
    await suite.fake.stop()
  })
  return suite
}

/** A customer with a customer token, in a new organization or in `within`'s ecosystem. */
export async function chatActor(h: Harness, within?: Pick<ChatActor, 'org' | 'owner'>): Promise<ChatActor> {
  const owner = within?.owner ?? (await h.register())
  const org = within?.org ?? (await provision(h, owner))
  const customer = await customerOf(h, org, owner)
  return { org, owner, customer, auth: { token: customer.token } }
}

export async function newConversation(h: Harness, actor: ChatActor, body: Record<string, unknown> = {}) {
  const res = await h.call('POST', '/chat/conversations', { ...actor.auth, body })
  if (res.status !== 201) throw new Error(`create conversation: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body as { id: string; title: string; model: string; personaSlug: string | null }
}

/** A streaming request to the app in-process; the Response is returned as it is. */
export function post(h: Harness, path: string, token: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return h.app.handle(new Request(`http://localhost${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body), signal }))
}

/**
 * Parses an SSE body strictly: every frame is `event: <name>\ndata: <json>\n\n` and nothing else,
 * as Ecobase writes it.
 */
export function parseFrames(text: string): ChatEvent[] {
  if (text && !text.endsWith('\n\n')) throw new Error(`SSE body does not end with a blank line: ${JSON.stringify(text.slice(-40))}`)
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const match = /^event: ([a-z_]+)\ndata: (.*)$/.exec(frame)
      if (!match) throw new Error(`malformed SSE frame: ${JSON.stringify(frame)}`)
      return { event: match[1], data: JSON.parse(match[2]!) } as ChatEvent
    })
}

/** Sends a message and reads the whole stream. */
export async function send(h: Harness, actor: ChatActor, conversationId: string, body: { message: string; clientMessageId?: string }) {
  const res = await post(h, `/chat/conversations/${conversationId}/messages`, actor.auth.token, body)
  const text = await res.text()
  const events = res.headers.get('content-type')?.startsWith('text/event-stream') ? parseFrames(text) : []
  return { status: res.status, headers: res.headers, text, events, json: events.length ? null : safeJson(text) }
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export const eventNames = (events: ChatEvent[]) => events.map((e) => e.event)

export const replyText = (events: ChatEvent[]) => events.map((e) => (e.event === 'token' ? e.data.text : '')).join('')
