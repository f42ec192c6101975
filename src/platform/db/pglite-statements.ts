/**
 * PGlite runs every `query` as six protocol calls into its WebAssembly (parse, describe the
 * statement, bind, describe the portal, execute, sync), parsing its text each time. A statement
 * kept prepared runs as one call of bind, describe, execute and sync: an update by primary key took
 * about 0.2 ms instead of 0.6 in a scratch loop with its plan kept, and P19 measured the account
 * refresh 1.23× and the OAuth refresh 1.31× with every run planned (bench/README.md, P4, session
 * 59). The PostgreSQL server path has done the same all along: postgres.js keeps each connection's
 * statements prepared by their text.
 *
 * So the embedded client keeps the statements of queries (`select`, `insert`, `update`, `delete`,
 * `with`) prepared by their text, the MAX_STATEMENTS last used; a statement dropped from the list is
 * closed with the next one run. Anything else (`begin`, a schema change, a query with PGlite options
 * beyond `rowMode`) runs as PGlite runs it; a schema change (`create`, `alter`, `drop`) forgets every
 * kept statement first, since PostgreSQL re-plans them but refuses one whose columns changed. The
 * same refusal met anyway forgets the statement, and outside a transaction the query runs again once.
 */

import { type PGlite, parse, protocol, type Results, type Transaction } from '@electric-sql/pglite'

type Options = Parameters<PGlite['query']>[2]

export const MAX_STATEMENTS = 200
/**
 * PostgreSQL would plan a kept statement once for all parameters after five runs, and keep that
 * plan until a schema change or an ANALYZE, which PGlite never runs by itself (no autovacuum): a
 * plan made while a table was nearly empty stayed as it filled. The presign's duplicate check,
 * planned over a few rows, walked every file of the customer 8,000 presigns later (1.5 ms a run and
 * growing, against 0.2 ms replanned). So a database opened here plans every run for its values; the
 * server's maintenance (pglite-maintenance.ts), which keeps the statistics, turns generic plans on.
 */
export const PLAN_CACHE_MODE = 'plan_cache_mode=force_custom_plan'
const QUERY = /^\s*(select|insert|update|delete|with)\b/i
/** A text that starts (after comments) with create, alter or drop. */
const SCHEMA_CHANGE = /^(?:\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)*(?:create|alter|drop)\b/i
/** PostgreSQL's refusal to run a kept statement whose result's columns changed (0A000). */
const CHANGED_RESULT = 'cached plan must not change result type'

const { serialize } = protocol

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

interface Statement {
  name: string
  /** The parameters' type OIDs, for PGlite's serializers. */
  types: number[]
}

/** The statements one PGlite instance keeps prepared; its callers hold the query lock. */
class Statements {
  /** By text, least recently used first. */
  private readonly kept = new Map<string, Statement>()
  /** Names to close with the next statement run. */
  private closing: string[] = []
  private made = 0

  constructor(private readonly client: PGlite) {}

  /** How many statements are kept. */
  get size(): number {
    return this.kept.size
  }

  async run(text: string, params: unknown[], options: Options): Promise<Results> {
    const statement = this.kept.get(text) ?? (await this.prepare(text))
    this.kept.delete(text)
    this.kept.set(text, statement)
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = this.client.serializers[statement.types[i]!]
      return serializer ? serializer(value) : String(value)
    })
    const closes = this.closing.map((name) => serialize.close({ type: 'S', name }))
    this.closing = []
    try {
      const messages = await this.exchange([
        ...closes,
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ])
      return parse.parseResults(messages, this.client.parsers, options)[0]!
    } catch (err) {
      if ((err as Error).message === CHANGED_RESULT) this.forget(text)
      throw Object.assign(err as Error, { query: text, params, queryOptions: options })
    }
  }

  /** Forgets every kept statement (closed with the next statement run). */
  forgetAll(): void {
    for (const statement of this.kept.values()) this.closing.push(statement.name)
    this.kept.clear()
  }

  forget(text: string): void {
    const statement = this.kept.get(text)
    if (!statement) return
    this.closing.push(statement.name)
    this.kept.delete(text)
  }

  /** One call into the database with these messages; throws its first error (the messages up to the sync are all run). */
  private exchange(messages: Uint8Array[]) {
    return this.client.execProtocolStream(concat(messages), { syncToFs: false })
  }

  private async prepare(text: string): Promise<Statement> {
    const name = `ecobase_${++this.made}`
    try {
      const messages = await this.exchange([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()])
      if (this.kept.size >= MAX_STATEMENTS) {
        const [oldest] = this.kept.keys()
        this.forget(oldest!)
      }
      return { name, types: parse.parseDescribeStatementResults(messages) }
    } catch (err) {
      this.closing.push(name)
      throw Object.assign(err as Error, { query: text, queryOptions: undefined })
    }
  }
}

/** Whether PGlite's query with these options can run as a kept statement: options beyond rowMode (blobs, parsers, types) cannot. */
function keepable(text: string, options: Options): boolean {
  if (options && Object.keys(options).some((key) => key !== 'rowMode')) return false
  return QUERY.test(text)
}

/**
 * Makes `client.query`, and the `query` of its transactions, keep statements prepared (see
 * above). Install it before anything that wraps those methods.
 */
export function keepStatementsPrepared(client: PGlite): { readonly size: number } {
  const statements = new Statements(client)
  const query = client.query.bind(client)
  const transaction = client.transaction.bind(client)
  const other = <T>(text: string, run: () => Promise<T>): Promise<T> => {
    if (SCHEMA_CHANGE.test(text)) statements.forgetAll()
    return run()
  }

  client.query = (async (text: string, params: unknown[] = [], options?: Options) => {
    if (!keepable(text, options)) return other(text, () => query(text, params, options))
    await client._checkReady()
    const once = () =>
      client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          const results = await statements.run(text, params, options)
          await client.syncToFs()
          return results
        }),
      )
    try {
      return await once()
    } catch (err) {
      if ((err as Error).message !== CHANGED_RESULT) throw err
      return once()
    }
  }) as PGlite['query']

  client.transaction = (<T>(fn: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx)
      const kept = Object.create(tx) as Transaction
      kept.query = (async (text: string, params: unknown[] = [], options?: Options) => {
        if (!keepable(text, options)) return other(text, () => txQuery(text, params, options))
        if (tx.closed) throw new Error('Transaction is closed')
        return client._runExclusiveQuery(() => statements.run(text, params, options))
      }) as Transaction['query']
      return fn(kept)
    })) as PGlite['transaction']

  return statements
}
