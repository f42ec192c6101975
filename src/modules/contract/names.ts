import { AppError } from '../../platform/errors'
import { NAME_PATTERN } from './model'

const NAME = new RegExp(NAME_PATTERN)
/** Names a row or route already uses, and the contract name that would shadow /contract/contracts. */
const SYSTEM = new Set([
  'id',
  'customer_id',
  'customerid',
  'owner_id',
  'ownerid',
  'ecosystem_id',
  'contract_id',
  'created_at',
  'createdat',
  'updated_at',
  'updatedat',
  'data',
  'contracts',
  'rows',
])
/** PostgreSQL's reserved key words: never names, although Ecobase quotes and binds every name anyway. */
const RESERVED = new Set(
  (
    'all analyse analyze and any array as asc asymmetric authorization binary both case cast check collate collation column concurrently constraint create ' +
    'cross current_catalog current_date current_role current_schema current_time current_timestamp current_user default deferrable desc distinct do else end ' +
    'except false fetch for foreign freeze from full grant group having ilike in initially inner intersect into is isnull join lateral leading left like limit ' +
    'localtime localtimestamp natural not notnull null offset on only or order outer overlaps placing primary references returning right select session_user ' +
    'similar some symmetric system_user table tablesample then to trailing true union unique user using variadic verbose when where window with'
  ).split(' '),
)

/** The contract's name and its column names, or a 400 naming the first bad one. */
export function checkNames(contract: string, columns: readonly { name: string }[]): void {
  check(contract, 'name')
  const seen = new Set<string>()
  for (const column of columns) {
    check(column.name, `columns.${column.name}`)
    if (seen.has(column.name)) throw new AppError(400, 'validation_failed', `columns.${column.name}: named twice`)
    seen.add(column.name)
  }
}

function check(name: string, where: string) {
  if (!NAME.test(name)) throw new AppError(400, 'validation_failed', `${where}: a name matches ^[a-z][a-z0-9_]{0,62}$`)
  if (RESERVED.has(name)) throw new AppError(400, 'validation_failed', `${where}: ${name} is an SQL reserved word`)
  if (SYSTEM.has(name)) throw new AppError(400, 'validation_failed', `${where}: ${name} is a system name`)
}
