import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const WELCOME = {
  name: 'welcome',
  subject: 'Welcome, {{ customer.name }}',
  htmlBody: '<p>Hello {{who}}, your code is <b>{{code}}</b></p>',
  textBody: 'Hello {{who}}, your code is {{code}}',
  category: 'account',
  smsBody: 'Code {{code}} for {{who}}',
}

describe('/messaging/templates', () => {
  test('create, read, list, change, delete; names are unique per ecosystem', async () => {
    const created = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: WELCOME })
    expect(created.status).toBe(201)
    const id: string = created.body.id
    expect(created.body).toEqual({ ...WELCOME, id, createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/) })
    const again = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: WELCOME })
    expect(again.status).toBe(409)
    expect(again.body.error.code).toBe('template_name_taken')
    expect((await h.call('GET', `/messaging/templates/${id}`, org.as(owner))).body.name).toBe('welcome')
    const changed = await h.call('PATCH', `/messaging/templates/${id}`, { ...org.as(owner), body: { subject: 'Hi {{who}}', smsBody: null } })
    expect(changed.status).toBe(200)
    expect(changed.body.subject).toBe('Hi {{who}}')
    expect(changed.body).not.toHaveProperty('smsBody')
    const list = await h.call('GET', '/messaging/templates?pageSize=5', org.as(owner))
    expect(list.body).toMatchObject({ total: 1, page: 1, pageSize: 5, items: [{ id }] })
    expect((await h.call('DELETE', `/messaging/templates/${id}`, org.as(owner))).status).toBe(204)
    expect((await h.call('GET', `/messaging/templates/${id}`, org.as(owner))).status).toBe(404)
  })

  test('preview renders without sending: HTML-escaped in htmlBody, as given in text and SMS', async () => {
    const { body: t } = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: { ...WELCOME, name: 'preview' } })
    const hostile = `<script>alert("x")</script> & 'you'`
    const res = await h.call('POST', `/messaging/templates/${t.id}/preview`, {
      ...org.as(owner),
      body: { variables: { who: hostile, code: '42', 'customer.name': 'Ada' } },
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      subject: 'Welcome, Ada',
      htmlBody: '<p>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;you&#39;, your code is <b>42</b></p>',
      textBody: `Hello ${hostile}, your code is 42`,
      smsBody: `Code 42 for ${hostile}`,
    })
  })

  test('a placeholder without a value is 400 missing_variable naming it', async () => {
    const { body: t } = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: { ...WELCOME, name: 'missing' } })
    const res = await h.call('POST', `/messaging/templates/${t.id}/preview`, { ...org.as(owner), body: { variables: { who: 'x', 'customer.name': 'A' } } })
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'missing_variable', message: expect.stringContaining('variables.code') })
  })

  test('a subject with a line break is refused; a variable with one is folded onto one line', async () => {
    const bad = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: { ...WELCOME, name: 'crlf', subject: 'Hi\r\nBcc: x@evil.test' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain('subject')
    const { body: t } = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: { ...WELCOME, name: 'fold' } })
    const res = await h.call('POST', `/messaging/templates/${t.id}/preview`, {
      ...org.as(owner),
      body: { variables: { who: 'a', code: '1', 'customer.name': 'Eve\r\nBcc: x@evil.test' } },
    })
    expect(res.body.subject).toBe('Welcome, Eve Bcc: x@evil.test')
  })

  test('other ecosystems, members and customers cannot reach templates', async () => {
    const { body: t } = await h.call('POST', '/messaging/templates', { ...org.as(owner), body: { ...WELCOME, name: 'private' } })
    const stranger = await h.register()
    const theirs = await provision(h, stranger)
    for (const [method, path] of [
      ['GET', `/messaging/templates/${t.id}`],
      ['PATCH', `/messaging/templates/${t.id}`],
      ['DELETE', `/messaging/templates/${t.id}`],
      ['POST', `/messaging/templates/${t.id}/preview`],
    ] as const) {
      const res = await h.call(method, path, { ...theirs.as(stranger), body: method === 'GET' || method === 'DELETE' ? undefined : {} })
      expect(res.status, `${method} ${path}`).toBe(404)
    }
    expect((await h.call('GET', '/messaging/templates', theirs.as(stranger))).body.total).toBe(0)
    expect((await h.call('GET', `/messaging/templates/${t.id}`, { ...theirs.as(stranger), headers: { 'x-ecosystem-id': org.ecosystem.id } })).status).toBe(403)
    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    expect((await h.call('GET', '/messaging/templates', org.as(member))).status).toBe(403)
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', '/messaging/templates', { token: customer.token })).status).toBe(403)
    expect((await h.call('GET', '/messaging/templates')).status).toBe(401)
  })
})
