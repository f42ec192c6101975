// The operator's command line (`npx ecobase <command>`, bin/ecobase.mjs): each command does its
// work and exits 0; a problem the operator can fix is one line on stderr and exit 1; a usage
// mistake prints the help and exits 2.
import { writeFileSync } from 'node:fs'
import { BootError, buildDeps, loadConfig, openDatabase } from '../boot'
import { type Config, ConfigError } from '../config'
import { ensureWritableDir, LifecycleError, lockDataDir } from '../platform/lifecycle'
import { createLogger } from '../platform/logger'
import { adminCreate, adminResetMfa, CommandError } from './admin'
import { BackupError, type BackupManifest, backupStopped, restoreBackup, verifyBackup, writeBackup } from '../platform/backup/archive'
import { type Database, openPostgres } from '../platform/db'
import { progressReporter } from './progress'
import { openApiDocument } from './document'

class UsageError extends Error {}

type Options = Record<string, string | true>

interface Command {
  usage: string
  options: Record<string, 'value' | 'switch'>
  /** How many plain arguments (a file) it takes before its options. */
  positional?: number
  run(options: Options, args: string[]): Promise<string | null>
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    usage: `ecobase migrate
  Applies pending database migrations and exits: for deploy pipelines, before replicas start. Safe
  from several places at once (migrations take a lock). Uses DATABASE_URL, else the embedded
  database in DATA_DIR, which no running server may hold.`,
    options: {},
    async run() {
      const config = loadConfig()
      await withDatabase(config, async () => {})
      return `migrations applied (${config.databaseUrl ? 'PostgreSQL at DATABASE_URL' : `embedded, ${config.dataDir}`})`
    },
  },
  'admin create': {
    usage: `ecobase admin create --email E [--name N] [--password-stdin]
  Makes the account with this e-mail a platform admin (the \`admin\` capability), creating it when
  there is none; a new account needs --password-stdin (read from standard input, never from the
  command line, so it stays out of shell history). Written to the audit log.`,
    options: { email: 'value', name: 'value', 'password-stdin': 'switch' },
    async run(options) {
      if (typeof options.email !== 'string') throw new UsageError('--email is required')
      const email = options.email
      const password = options['password-stdin'] ? (await Bun.stdin.text()).replace(/\r?\n$/, '') : null
      const name = typeof options.name === 'string' ? options.name : null
      const outcome = await withDatabase(loadConfig(), (deps) => adminCreate(deps, { email, name, password }))
      return { created: `created ${email} as a platform admin`, promoted: `${email} is now a platform admin`, unchanged: `${email} was already a platform admin` }[outcome]
    },
  },
  'admin reset-mfa': {
    usage: `ecobase admin reset-mfa --email E
  Removes every second factor, passkey and recovery code of the account with this e-mail and signs
  out its sessions, for an owner who lost both device and recovery codes: it signs in with its
  password and enrolls anew. Written to the audit log; the account's address is told by e-mail.`,
    options: { email: 'value' },
    async run(options) {
      if (typeof options.email !== 'string') throw new UsageError('--email is required')
      const email = options.email
      const removed = await withDatabase(loadConfig(), (deps) => adminResetMfa(deps, { email }))
      return `reset the second factors of ${email} (${removed} removed; its sessions are signed out)`
    },
  },
  backup: {
    usage: `ecobase backup [--out FILE]
  Backs up a stopped embedded instance (DATA_DIR): the database, the generated server key and the
  local object store, into one .tar.gz (default ecobase-backup-<time>.tar.gz) with a manifest of
  every part's size and SHA-256. Written under FILE.partial and renamed when complete. The archive
  holds the server key: keep it as secret as the data. With DATABASE_URL the archive holds the
  server key and the local object store only (files uploaded meanwhile may be missed): back the
  database up with PostgreSQL's own tools (pg_dump, your provider's snapshots or point-in-time
  recovery).`,
    options: { out: 'value' },
    async run(options) {
      const config = loadConfig()
      const out = typeof options.out === 'string' ? options.out : `ecobase-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`
      const wrote = (m: BackupManifest) => `wrote ${out}: ${m.parts.length} parts, ${m.parts.reduce((n, p) => n + p.size, 0)} bytes, ${m.migrations} migrations`
      if (config.databaseUrl) {
        const manifest = await withPostgres(config.databaseUrl, (database) => writeBackup(database, config.dataDir, out, progress))
        return `${wrote(manifest)} (the server key and local files; the database is PostgreSQL at DATABASE_URL: back it up with pg_dump or your provider’s snapshots)`
      }
      return wrote(await withLock(config, () => backupStopped(config.dataDir, out, progress)))
    },
  },
  verify: {
    usage: `ecobase verify FILE
  Checks a backup without restoring it: every part against the manifest's size and SHA-256, and
  that this Ecobase can restore it (exit 1 otherwise, naming what is wrong).`,
    options: {},
    positional: 1,
    async run(_options, [file]) {
      const manifest = await verifyBackup(file!)
      return `${file} is whole: ${manifest.parts.length} parts, Ecobase ${manifest.ecobase.version}, ${manifest.migrations} migrations, taken ${manifest.createdAt}`
    },
  },
  restore: {
    usage: `ecobase restore FILE [--data-dir DIR] [--force]
  Restores a backup into DIR (default DATA_DIR) after verifying all of it. DIR must hold no
  instance; --force moves the one there aside (never deleting it). A backup from an older Ecobase is
  migrated forward; one from a newer Ecobase is refused.`,
    options: { 'data-dir': 'value', force: 'switch' },
    positional: 1,
    async run(options, [file]) {
      const config = loadConfig()
      const dataDir = typeof options['data-dir'] === 'string' ? options['data-dir'] : config.dataDir
      const target = { ...config, dataDir, databaseUrl: null }
      const manifest = await withLock(target, () => restoreBackup(file!, dataDir, options.force === true, progress))
      const restored = `restored ${file} into ${dataDir} (Ecobase ${manifest.ecobase.version}, taken ${manifest.createdAt})`
      if (manifest.database === 'external') return `${restored}: the server key and local files; the database was PostgreSQL and is not in it (restore it with pg_restore or your provider’s snapshot)`
      // The first open migrates it forward, as at any boot.
      await withDatabase(target, async () => {})
      return restored
    },
  },
  openapi: {
    usage: `ecobase openapi [--out FILE]
  Writes the OpenAPI document to standard output, or to FILE.`,
    options: { out: 'value' },
    async run(options) {
      const document = await openApiDocument()
      if (typeof options.out !== 'string') {
        process.stdout.write(document)
        return null
      }
      writeFileSync(options.out, document)
      return `wrote ${options.out}`
    },
  },
}

const HELP = `Usage: ecobase <command> [options]   (every command takes --help)

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage.split('\n')[0]!.replace(/^ecobase /, '')}`)
  .join('\n')}

Configuration comes from the environment, as for the server (README: Configuration).`

/** `--name value` and `--switch` options, each known to the command. */
function parseOptions(args: string[], known: Command['options']): Options {
  const found: Options = {}
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.replace(/^--/, '')
    if (!args[i]!.startsWith('--') || !Object.hasOwn(known, name)) throw new UsageError(`unknown option ${args[i]}`)
    if (known[name] === 'switch') found[name] = true
    else if (args[i + 1] === undefined || args[i + 1]!.startsWith('--')) throw new UsageError(`--${name} needs a value`)
    else found[name] = args[++i]!
  }
  return found
}

/** Runs `work` holding DATA_DIR's lock (refused while a server holds it), when the database is the embedded one. */
async function withLock<T>(config: Readonly<Config>, work: () => Promise<T>): Promise<T> {
  ensureWritableDir(config.dataDir)
  const lock = config.databaseUrl ? null : lockDataDir(config.dataDir, () => {})
  try {
    return await work()
  } finally {
    lock?.release()
  }
}

/** The PostgreSQL database at `url`, as it is (no migration), for `work`. */
async function withPostgres<T>(url: string, work: (database: Database) => Promise<T>): Promise<T> {
  let database: Database
  try {
    database = await openPostgres(url, { max: 1 })
  } catch (err) {
    throw new BootError(`DATABASE_URL: cannot connect (${(err as Error).message || (err as { code?: string }).code})`)
  }
  try {
    return await work(database)
  } finally {
    await database.close()
  }
}

/** Opens the configured database (migrating it, as at boot) under DATA_DIR's lock. */
function withDatabase<T>(config: Readonly<Config>, work: (deps: ReturnType<typeof buildDeps>) => Promise<T>): Promise<T> {
  return withLock(config, async () => {
    const database = await openDatabase(config)
    try {
      return await work(buildDeps(config, database, { logger: createLogger('silent') }))
    } finally {
      await database.close()
    }
  })
}

const progress = progressReporter(process.stdout)

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv[0] === '--help') {
    console.log(HELP)
    return argv.length === 0 ? 2 : 0
  }
  const name = argv[0] === 'admin' ? `admin ${argv[1] ?? ''}`.trim() : argv[0]!
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null
  if (!command) throw new UsageError(`unknown command "${name}"`)
  const rest = argv.slice(name.split(' ').length)
  if (rest.includes('--help')) {
    console.log(command.usage)
    return 0
  }
  const positional = command.positional ?? 0
  const args = rest.slice(0, positional)
  if (args.length < positional || args.some((a) => a.startsWith('--'))) throw new UsageError(`${name} needs ${positional === 1 ? 'a file' : `${positional} arguments`}`)
  const said = await command.run(parseOptions(rest.slice(positional), command.options), args)
  if (said) console.log(said)
  return 0
}

try {
  process.exit(await main(process.argv.slice(2)))
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`ecobase: ${err.message}\n\n${HELP}`)
    process.exit(2)
  }
  if (err instanceof ConfigError || err instanceof BootError || err instanceof LifecycleError || err instanceof CommandError || err instanceof BackupError) {
    console.error(`ecobase: ${err.message}`)
    process.exit(1)
  }
  throw err
}
