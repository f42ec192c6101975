import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { RealtimeEvent } from '../../client/index'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'
import { until } from '../support/wait'
import { connect } from './connect'

let h: Harness
beforeAll(async () => {
  // Access tokens of 2 s: streams end with token_expired while the test watches.
  h = await createHarness({ ACCESS_TOKEN_TTL_SECONDS: '2' })
})
afterAll(() => h.close())

/** Collects what a subscription yields until aborted. */
function collect<T>(iterator: AsyncGenerator<T>) {
  const seen: T[] = []
  const done = (async () => {
    for await (const ev of iterator) seen.push(ev)
  })()
  return { seen, done }
}

describe('typed client: realtime.subscribe', () => {
  test('typed changes per topic; a dropped stream reconnects and resumes from its cursor, losing and repeating nothing', async () => {
    const owner = await h.register()
    const org = await provision(h, owner)
    const ada = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Live' } })
    // Every stream response goes through a pipe the test can cut, as a network drop would.
    const cuts: (() => void)[] = []
    const { client, requests } = connect(h, {
      tokens: { token: ada.token, refreshToken: ada.refreshToken },
      refreshLeewaySeconds: 0,
      hook: (req) => {
        if (!req.url.includes('/realtime/stream')) return undefined
        const { readable, writable } = new TransformStream()
        const drop = new AbortController()
        const relay = h.app.handle(req).then((res) => {
          void res.body!.pipeTo(writable, { signal: drop.signal }).catch(() => {})
          return res
        })
        cuts.push(() => drop.abort(new Error('network drop')))
        return relay.then((res) => new Response(readable, { status: res.status, headers: res.headers })) as unknown as Response
      },
    })
    const controller = new AbortController()
    const { seen, done } = collect(client.realtime.subscribe(['data/documents', `community/replies:${thread.id}`], { signal: controller.signal }))
    await until(() => cuts.length === 1)
    await Bun.sleep(100)
    const { body: doc } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'first' } })
    await until(() => seen.length === 1)
    cuts[0]!()
    // Written while the stream is down.
    await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: thread.id, body: 'while away' } })
    await h.call('PATCH', `/data/documents/${doc.id}`, { token: ada.token, body: { title: 'renamed while away' } })
    await until(() => seen.length === 3)
    await h.call('DELETE', `/data/documents/${doc.id}`, { token: ada.token })
    await until(() => seen.length === 4)
    controller.abort()
    await done
    expect(requests.filter((r) => r === 'GET /realtime/stream').length).toBeGreaterThanOrEqual(2)
    const changes = seen.map((e) => (e.event === 'change' ? [e.data.topic, e.data.op] : [e.event]))
    expect(changes).toEqual([
      ['data/documents', 'insert'],
      ['community/replies', 'insert'],
      ['data/documents', 'update'],
      ['data/documents', 'delete'],
    ])
    const first = seen[0] as Extract<RealtimeEvent<'data/documents'>, { event: 'change' }>
    // Narrowing by topic and op types the record as the list route's row.
    if (first.data.topic === 'data/documents' && 'record' in first.data) {
      expect(first.data.record.title).toBe('first')
      // @ts-expect-error a document has no `body`
      expect(first.data.record.body).toBeUndefined()
    }
  })

  test('a stream whose access token expires is ended by the server; the client refreshes the token and resumes', async () => {
    const owner = await h.register()
    const org = await provision(h, owner)
    const ada = await customerOf(h, org, owner)
    const { client, count } = connect(h, { tokens: { token: ada.token, refreshToken: ada.refreshToken }, refreshLeewaySeconds: 0 })
    const controller = new AbortController()
    const { seen, done } = collect(client.realtime.subscribe(['userdata/notes'], { signal: controller.signal }))
    await Bun.sleep(300)
    const { body: before } = await h.call('POST', '/userdata/notes', { token: (await customerOf(h, org, owner)).token, body: { title: 'not hers' } })
    expect(before.id).toBeString()
    await until(() => client.getTokens()?.token !== ada.token, 8000)
    expect(count('POST /customer/refresh')).toBeGreaterThanOrEqual(1)
    const fresh = client.getTokens()!.token
    const { body: after } = await h.call('POST', '/userdata/notes', { token: fresh, body: { title: 'after the refresh' } })
    await until(() => seen.length === 1)
    controller.abort()
    await done
    expect(seen.map((e) => e.event === 'change' && e.data.id)).toEqual([after.id])
  })
})
