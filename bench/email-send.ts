/**
 * One e-mail through Ecobase (`POST /messaging/email`: customer lookup, provider resolution,
 * rendering, nodemailer over a pooled SMTP connection, the log row) against a bare nodemailer
 * `sendMail` on its own pooled connection to the same local SMTP server (smtp-server), sequential,
 * alternating in rounds, in-process, on PGlite and PostgreSQL. Reported: ms per send (median of
 * rounds) and the time Ecobase adds.
 *
 *   npx bun bench/email-send.ts [--db=pglite,postgres] [--sends=300] [--rounds=3]
 */
import nodemailer from 'nodemailer'
import { SMTPServer } from 'smtp-server'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  markdownTable,
  median,
  type RunInfo,
  runInfo,
} from './support'

export interface EmailSendOptions {
  backends?: Backend[]
  sends?: number
  rounds?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  ecobaseMs?: number
  bareMs?: number
}

export interface EmailSendResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  sends: number
  backends: BackendResult[]
}

/** A local SMTP server that accepts and discards everything. */
async function sink() {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => callback())
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `smtp://127.0.0.1:${(server.server.address() as { port: number }).port}`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

async function msPerSend(count: number, send: (i: number) => Promise<unknown>): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await send(i)
  return (performance.now() - started) / count
}

export async function benchEmailSend(options: EmailSendOptions = {}): Promise<EmailSendResult> {
  const sends = options.sends ?? 300
  const rounds = options.rounds ?? 3
  const log = (line: string) => console.error(line)
  const smtp = await sink()
  try {
    const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
      const bench = await inProcessApp(backend, { env: { SMTP_URL: smtp.url, MAIL_FROM: 'Bench <bench@example.test>' } })
      const bare = nodemailer.createTransport({ url: smtp.url, pool: true } as Parameters<typeof nodemailer.createTransport>[0])
      try {
        const admin = { token: bench.owner.token, headers: { 'x-ecosystem-id': bench.owner.ecosystemId } }
        const { customerId } = await bench.call('POST', '/customer/resolve', {
          ...admin,
          body: { externalId: 'mail-bench', email: 'reader@example.test', name: 'Reader' },
        })
        const viaEcobase = async (i: number) => {
          const result = await bench.call('POST', '/messaging/email', { ...admin, body: { customerId, subject: `Hello ${i}`, text: 'A short message body.' } })
          if (result.status !== 'sent') throw new Error(`send failed: ${result.error}`)
        }
        const viaBare = (i: number) =>
          bare.sendMail({ from: 'Bench <bench@example.test>', to: 'reader@example.test', subject: `Hello ${i}`, text: 'A short message body.' })
        await viaEcobase(0)
        await viaBare(0)
        const ecobase: number[] = []
        const plain: number[] = []
        for (let round = 0; round < rounds; round++) {
          plain.push(await msPerSend(sends, viaBare))
          ecobase.push(await msPerSend(sends, viaEcobase))
          log(`  ${backend} round ${round + 1}: Ecobase ${fmt(ecobase.at(-1)!, 2)} ms/send, bare nodemailer ${fmt(plain.at(-1)!, 2)} ms/send`)
        }
        return { backend, ecobaseMs: median(ecobase), bareMs: median(plain) }
      } finally {
        bare.close()
        await bench.close()
      }
    })
    return { pass: true, failed: backends.some((b) => b.error), run: runInfo(), sends, backends }
  } finally {
    await smtp.close()
  }
}

export function emailSendTable(result: EmailSendResult): string {
  const rows = result.backends.map((b) =>
    b.ecobaseMs === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | |`
      : `| ${b.backend} | ${fmt(b.ecobaseMs, 2)} ms | ${fmt(b.bareMs!, 2)} ms | **+${fmt(b.ecobaseMs - b.bareMs!, 2)} ms** | ${(b.ecobaseMs / b.bareMs!).toFixed(2)}× |`,
  )
  return markdownTable('| database | POST /messaging/email | bare nodemailer sendMail | added per send | ratio |', '|---|---:|---:|---:|---:|', rows)
}

export const command: BenchCommand<EmailSendResult> = {
  name: 'email-send',
  run: (argv) => benchEmailSend(benchArgs<EmailSendOptions>(argv, { sends: 'sends', rounds: 'rounds' }).opts),
  table: emailSendTable,
}

if (import.meta.main) await benchMain(command)
