// The operator's command line (`npx ecobase <command>`, bin/ecobase.mjs): each command does its
// work and exits 0; a problem is one line on stderr and exit 1 (never a stack trace); a usage
// mistake names it, shows the command's usage and exits 2. `--help` / `-h` anywhere shows help.
import { writeFileSync } from 'node:fs'
import pkg from '../../package.json'
import { BootError, buildDeps, loadConfig, openDatabase } from '../boot'
import type { Config } from '../config'
import { ensureWritableDir, lockDataDir } from '../platform/lifecycle'
import { createLogger } from '../platform/logger'
import { adminCreate, adminResetMfa } from './admin'
import { backupCommand, restoreCommand, verifyCommand } from './backup'
import { type Database, openPostgres } from '../platform/db'
import { progressReporter } from './progress'
import { openApiDocument } from './document'

class UsageError extends Error {
  constructor(
    message: string,
    readonly help = '',
  ) {
    super(message)
  }
}

type Options = Record<string, string | true>

interface Command {
  /** One line for the list of commands. */
  summary: string
  /** The synopsis, then what it does. */
  usage: string
  options: Record<string, 'value' | 'switch'>
  /** How many plain arguments (a file) it takes before its options. */
  positional?: number
  run(options: Options, args: string[]): Promise<string | null>
}

const COMMANDS: Record<string, Command> = {
  migrate: {
    summary: 'Apply pending database migrations and exit',
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
    summary: 'Make an account a platform admin, creating it when there is none',
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
      return {
        created: `created ${email} as a platform admin`,
        promoted: `${email} is now a platform admin`,
        unchanged: `${email} was already a platform admin`,
      }[outcome]
    },
  },
  'admin reset-mfa': {
    summary: 'Remove every second factor of an account that lost its device and recovery codes',
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
    summary: 'Back up the instance (database, server key, local files) into one archive',
    usage: `ecobase backup [--out FILE] [--force]
  Backs up the instance into one archive (default ecobase-backup-<time>.tar.gz, or .tar.gz.enc
  when BACKUP_ENCRYPTION_KEY is set): the database, the generated server key and the local object
  store, with a manifest of checksums; every part streamed. Embedded: the instance must be stopped
  (DATA_DIR's lock). With DATABASE_URL: pg_dump -Fc of it, when pg_dump is on the PATH (the server
  may run); without pg_dump, only the server key and local files. Written as FILE.partial and
  renamed when complete; nothing is left of a failed one. An existing FILE is replaced only with
  --force. Without BACKUP_ENCRYPTION_KEY the archive holds the server key in clear.`,
    options: { out: 'value', force: 'switch' },
    async run(options) {
      const config = loadConfig()
      return backupCommand(
        config,
        { out: typeof options.out === 'string' ? options.out : undefined, force: options.force === true },
        { withLock: (work) => withLock(config, work), withPostgres: (work) => withPostgres(config.databaseUrl!, work), progress },
      )
    },
  },
  verify: {
    summary: 'Check a backup archive the way restore reads it, without restoring it',
    usage: `ecobase verify FILE
  Restore's dry run: reads the whole archive (decrypting it with BACKUP_ENCRYPTION_KEY when it is
  encrypted): every entry a regular file or directory with a relative name inside its part, none
  twice, every part against the manifest's checksums, the database opened in a scratch directory,
  and that this Ecobase can restore it. Exit 1 naming what is wrong; nothing is written.`,
    options: {},
    positional: 1,
    run: (_options, [file]) => verifyCommand(loadConfig(), file!, progress),
  },
  restore: {
    summary: 'Restore a backup into a data directory (and DATABASE_URL for a PostgreSQL one)',
    usage: `ecobase restore FILE [--data-dir DIR] [--force]
  Restores a backup into DIR (default DATA_DIR): everything is written and checked in a staging
  directory beside DIR, the database opened and migrated forward, and only then put in place. DIR
  must hold no instance; --force moves the one there aside (never deleting it), at that last step
  only. A failed or interrupted restore leaves DIR as it was. A PostgreSQL backup's database goes
  into DATABASE_URL, which must be an empty database (pg_restore). A backup from a newer Ecobase
  is refused.`,
    options: { 'data-dir': 'value', force: 'switch' },
    positional: 1,
    run(options, [file]) {
      const config = loadConfig()
      const dataDir = typeof options['data-dir'] === 'string' ? options['data-dir'] : config.dataDir
      return restoreCommand(config, file!, { dataDir, force: options.force === true }, progress)
    },
  },
  openapi: {
    summary: 'Write the OpenAPI document',
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

/** The commands of a group (`admin`): those named `<group> <subcommand>`. */
const inGroup = (group: string) => Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `))
const listing = (names: string[]) => names.map((name) => `  ${name.padEnd(14)} ${COMMANDS[name]!.summary}`).join('\n')

const HELP = `Usage: ecobase <command> [options]
  ecobase <command> --help   what a command does and takes
  ecobase --version          the version

Commands:
${listing(Object.keys(COMMANDS))}

Run it in the project folder (npx ecobase …), or from anywhere as node <project>/bin/ecobase.mjs ….
Configuration comes from the environment, as for the server (docs/operations/configuration.md).`

const groupHelp = (group: string) => `Usage: ecobase ${group} <command> [options]

Commands:
${listing(inGroup(group))}`

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

const wantsHelp = (args: string[]) => args.includes('--help') || args.includes('-h')

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version') {
    console.log(`ecobase ${pkg.version}`)
    return 0
  }
  if (argv.length === 0 || argv[0] === 'help' || wantsHelp(argv.slice(0, 1))) {
    console.log(HELP)
    return argv.length === 0 ? 2 : 0
  }
  const group = inGroup(argv[0]!).length ? argv[0]! : null
  if (group && (argv.length === 1 || wantsHelp(argv.slice(1, 2)))) {
    if (argv.length === 1) throw new UsageError(`${group} needs a command`, groupHelp(group))
    console.log(groupHelp(group))
    return 0
  }
  const name = group ? `${group} ${argv[1]}` : argv[0]!
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null
  if (!command) throw new UsageError(`unknown command "${name}"`, group ? groupHelp(group) : HELP)
  const rest = argv.slice(name.split(' ').length)
  if (wantsHelp(rest)) {
    console.log(command.usage)
    return 0
  }
  const positional = command.positional ?? 0
  const args = rest.slice(0, positional)
  if (args.length < positional || args.some((a) => a.startsWith('-')))
    throw new UsageError(`${name} needs ${positional === 1 ? 'a file' : `${positional} arguments`}`, command.usage)
  try {
    const said = await command.run(parseOptions(rest.slice(positional), command.options), args)
    if (said) console.log(said)
    return 0
  } catch (err) {
    throw err instanceof UsageError && !err.help ? new UsageError(err.message, command.usage) : err
  }
}

try {
  process.exit(await main(process.argv.slice(2)))
} catch (err) {
  if (err instanceof UsageError) {
    console.error(`ecobase: ${err.message}\n\n${err.help}`)
    process.exit(2)
  }
  // Whatever it is (a bad setting, a refused archive, a disk full), one line: the message, never a stack.
  const message = err instanceof Error ? err.message : String(err)
  console.error(`ecobase: ${message.split('\n')[0] || (err as { code?: string }).code || 'failed'}`)
  process.exit(1)
}
