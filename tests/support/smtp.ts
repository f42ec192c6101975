import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  envelope: { from: string; to: string[] }
  raw: string
  parsed: ParsedMail
}

/**
 * A real SMTP server (smtp-server) on a free port that keeps what it receives, parsed back with
 * mailparser. `mode`: `accept`, `reject` (550 on RCPT), `hang` (never answers DATA; the message
 * is kept in `hung`), and with `auth` only those credentials are accepted (535 otherwise).
 */
export async function startSmtp(options: { auth?: { user: string; pass: string } } = {}) {
  const received: ReceivedMail[] = []
  const hung: ReceivedMail[] = []
  const state = { mode: 'accept' as 'accept' | 'reject' | 'hang' }
  const server = new SMTPServer({
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username })
      const err = Object.assign(new Error('Invalid username or password'), { responseCode: 535 })
      callback(err)
    },
    onRcptTo(address, _session, callback) {
      if (state.mode === 'reject') return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', async () => {
        const hang = state.mode === 'hang'
        const raw = Buffer.concat(chunks).toString('utf8')
        ;(hang ? hung : received).push({
          envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
          raw,
          parsed: await simpleParser(raw),
        })
        if (!hang) callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    port,
    url: options.auth ? `smtp://${options.auth.user}:${options.auth.pass}@127.0.0.1:${port}` : `smtp://127.0.0.1:${port}`,
    received,
    hung,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export type SmtpPeer = Awaited<ReturnType<typeof startSmtp>>
