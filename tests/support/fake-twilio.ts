/** What the double received: the account in the path, Basic credentials, and the form fields. */
export interface TwilioRequest {
  accountSid: string
  username: string
  password: string
  form: Record<string, string>
}

/**
 * A local HTTP endpoint shaped like Twilio's Messages API (POST
 * /2010-04-01/Accounts/{sid}/Messages.json, Basic auth, form body, JSON answers and Twilio's error
 * body `{ code, message, more_info, status }`). `mode`: `accept`, `invalid_number` (400, code
 * 21211), `hang` (never answers). Wrong credentials get 401 (code 20003).
 */
export function startFakeTwilio(credentials: { accountSid: string; authToken: string }) {
  const received: TwilioRequest[] = []
  const state = { mode: 'accept' as 'accept' | 'invalid_number' | 'hang' }
  let n = 0
  const error = (status: number, code: number, message: string) =>
    Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status })
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(new URL(request.url).pathname)
      if (!match || request.method !== 'POST') return error(404, 20404, 'The requested resource was not found')
      const [username, password] = Buffer.from((request.headers.get('authorization') ?? '').replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')
      const form = Object.fromEntries(new URLSearchParams(await request.text()))
      received.push({ accountSid: match[1]!, username: username ?? '', password: password ?? '', form })
      if (username !== credentials.accountSid || password !== credentials.authToken) return error(401, 20003, 'Authenticate')
      if (state.mode === 'hang') return new Promise<Response>(() => {})
      if (state.mode === 'invalid_number') return error(400, 21211, `The 'To' number ${form.To} is not a valid phone number.`)
      const sid = `SM${(++n).toString(16).padStart(32, '0')}`
      return Response.json({ sid, account_sid: match[1], to: form.To, from: form.From ?? null, body: form.Body, status: 'queued' }, { status: 201 })
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, received, state, close: () => server.stop(true) }
}

export type FakeTwilio = ReturnType<typeof startFakeTwilio>
