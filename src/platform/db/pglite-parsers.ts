import { type PGlite, type ParserOptions, type Transaction, types } from '@electric-sql/pglite'

/**
 * The types Drizzle reads as PostgreSQL's text (it maps dates itself): timestamp, timestamptz,
 * interval, date and the arrays numeric[], timestamp[], timestamptz[], interval[], date[].
 */
const RAW = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182]

type Options = Parameters<PGlite['query']>[2]

/** A query's options without `parsers`: the instance's own are Drizzle's already. */
function withoutParsers(options: Options): Options {
  if (!options?.parsers) return options
  const { parsers: _, ...rest } = options
  return rest
}

function queryOf(target: PGlite | Transaction): PGlite['query'] {
  return (text, params, options) => target.query(text, params, withoutParsers(options))
}

/**
 * PGlite as Drizzle should see it. PGlite merges a query's `parsers` into a copy of the
 * instance's whole map (318 types) on every query, which cost more than the query itself
 * (≈ 0.25 ms a query on the 2-core machine), and Drizzle passes its nine with every query. So the
 * instance's parsers of those types become Drizzle's (the text as it is), and the client Drizzle
 * gets leaves them out. Answers that client, and the instance's former parsers of those types for
 * callers that want PGlite's defaults (Date objects: the job queue's SQL).
 */
export function drizzleView(client: PGlite): { client: PGlite; defaults: ParserOptions } {
  const defaults: ParserOptions = Object.fromEntries(RAW.map((oid) => [oid, client.parsers[oid]!]))
  for (const oid of RAW) client.parsers[oid] = (value: string) => value
  const view = {
    query: queryOf(client),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
      client.transaction((tx) => fn(Object.assign(Object.create(tx) as Transaction, { query: queryOf(tx) }))),
  }
  return { client: view as unknown as PGlite, defaults }
}
