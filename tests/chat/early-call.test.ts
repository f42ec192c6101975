import { beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { ChatService } from '../../src/modules/chat/service'
import { conversations } from '../../src/modules/chat/schema'
import type { Tenant } from '../../src/platform/tenancy'
import type { ChatModel, LlmEvent, LlmProviders, LlmRequest } from '../../src/providers/llm'
import { testDatabaseUrl } from '../support/database'
import { rejection } from '../support/wait'
import { chatSuite, newConversation, send } from './support'

// A turn's model call starts in the transaction that stores its user message, once nothing can
// refuse the turn (src/modules/chat/turns.ts, TurnCall), and runs while that transaction commits:
// these hold its commit back or fail it.
const s = chatSuite()
beforeAll(async () => {
  // Checked as the transaction commits: a user message "held" waits there for advisory lock 4711;
  // one saying "refused" cannot be committed.
  await s.h.db.execute(sql`
    create function chat.test_chat_commit() returns trigger language plpgsql as $$
    begin
      if new.content = 'held' then perform pg_advisory_xact_lock(4711); end if;
      if new.content = 'refused' then raise exception 'refused by the test'; end if;
      return null;
    end $$`)
  await s.h.db.execute(
    sql`create constraint trigger test_chat_commit after insert on chat.messages deferrable initially deferred for each row execute function chat.test_chat_commit()`,
  )
})

const lastUserText = (body: any) => body?.messages?.findLast((m: any) => m.role === 'user')?.content

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(10)
  }
}

describe('the model call of a turn', () => {
  test.skipIf(!testDatabaseUrl)('is under way while its user message is still being stored', async () => {
    const c = await newConversation(s.h, s.a)
    const other = postgres(s.h.databaseUrl!, { max: 1, onnotice: () => {} })
    try {
      await other`select pg_advisory_lock(4711)`
      let answered = false
      const reply = send(s.h, s.a, c.id, { message: 'held' }).finally(() => {
        answered = true
      })
      await until(() => s.fake.requests.some((r) => lastUserText(r.body) === 'held'), 5000, 'the model request')
      // The commit waits for the lock: the user message not stored, and the stream not open.
      expect(answered).toBe(false)
      const [row] = await other`select count(*)::int as n from chat.messages where conversation_id = ${c.id}`
      expect(row!.n).toBe(0)
      await other`select pg_advisory_unlock(4711)`
      const { status, events } = await reply
      expect(status).toBe(200)
      expect(events[0]?.event).toBe('open')
      expect(events.at(-1)?.event).toBe('done')
      expect(
        events
          .filter((e) => e.event === 'token')
          .map((e) => (e.data as { text: string }).text)
          .join(''),
      ).toBe('You said: held')
    } finally {
      await other.end()
    }
  })

  test('stops when its user message cannot be stored, and nothing of the turn is kept', async () => {
    const c = await newConversation(s.h, s.a)
    const refused = await send(s.h, s.a, c.id, { message: 'refused' })
    expect(refused.status).toBe(500)
    expect(refused.json?.error?.code).toBe('internal_error')
    const detail = await s.h.call('GET', `/chat/conversations/${c.id}`, s.a.auth)
    expect(detail.body.messages).toEqual([])
    // The call it had started is aborted at once: a model service would otherwise go on generating.
    const model = new RecordingModel()
    const chat = new ChatService(
      { ...s.h.deps, llm: { fallback: model, defaultModel: 'recorded' } as unknown as LlmProviders },
      { forChat: async () => null },
      { emit: async () => {} },
    )
    const [row] = await s.h.db.select().from(conversations).where(eq(conversations.id, c.id))
    const tenant = { ecosystemId: row!.ownerId, customerId: row!.customerId } as Tenant
    await rejection(chat.send(tenant, c.id, { message: 'refused' }, new AbortController().signal), 'refused by the test')
    expect(model.signals).toHaveLength(1)
    expect(model.signals[0]!.aborted).toBe(true)
    const kept = await chat.send(tenant, c.id, { message: 'kept' }, new AbortController().signal)
    const events = await Array.fromAsync(kept)
    expect(events.map((e) => e.event)).toEqual(['open', 'token', 'done'])
    expect(model.signals[1]!.aborted).toBe(true)
  })
})

/** A model service that answers one piece and records the signal of each call. */
class RecordingModel implements ChatModel {
  readonly kind = 'dev' as const
  readonly signals: AbortSignal[] = []
  async *stream(request: LlmRequest): AsyncGenerator<LlmEvent> {
    this.signals.push(request.signal!)
    yield { type: 'text', text: 'piece' }
    yield { type: 'finish', reason: 'stop' }
  }
  async listModels() {
    return []
  }
}
