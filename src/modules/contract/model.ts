import { t, type Static } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { Int } from '../../platform/numbers'

export const NAME_PATTERN = '^[a-z][a-z0-9_]{0,62}$'
export const MAX_COLUMNS = 64
export const MAX_CONTRACTS = 100
/**
 * How long a value of a `unique` column (as JSON) or an `indexed` text column may be, in bytes: both
 * are btree keys, and PostgreSQL refuses a key over about 2,700 bytes (a 500 if it got that far).
 */
export const MAX_KEY_BYTES = 2000

const Name = (what: string) => t.String({ pattern: NAME_PATTERN, description: `${what}: ^[a-z][a-z0-9_]{0,62}$, not an SQL reserved word or a system column` })
const Scope = t.Union([t.Literal('none'), t.Literal('own'), t.Literal('all')], { title: 'ContractScope' })

export const ContractColumn = t.Object(
  {
    name: Name('Column name'),
    type: t.Union([
      t.Literal('text'),
      t.Literal('integer'),
      t.Literal('number'),
      t.Literal('boolean'),
      t.Literal('timestamp'),
      t.Literal('json'),
      t.Literal('uuid'),
    ]),
    nullable: t.Optional(t.Boolean({ default: true, description: 'Default true' })),
    default: t.Optional(t.Unknown({ description: 'Value for rows written without this column (checked against the type)' })),
    unique: t.Optional(t.Boolean({ description: 'No two rows hold the same value (409 `conflict` naming the column)' })),
    indexed: t.Optional(
      t.Boolean({
        description:
          "Range and equality filters (`eq`, `gt`…`lte`, `in`) on this column use a btree index (text, integer, number, timestamp, uuid); `eq` on any column uses the rows' GIN index",
      }),
    ),
  },
  { title: 'ContractColumn' },
)
export type ContractColumn = Static<typeof ContractColumn>

export const ContractAccess = t.Object(
  { read: Scope, create: t.Boolean(), update: Scope, delete: Scope },
  { title: 'ContractAccess', description: 'What customers may do (own = rows they created); ecosystem admins may do everything' },
)
export type ContractAccess = Static<typeof ContractAccess>
export const DEFAULT_ACCESS: ContractAccess = { read: 'own', create: true, update: 'own', delete: 'own' }

export const Contract = t.Object(
  {
    name: t.String(),
    columns: t.Array(ContractColumn),
    droppedColumns: t.Array(t.String(), { description: 'Dropped columns whose values rows keep until a PATCH with `confirm: true`' }),
    access: ContractAccess,
    version: Int({ description: 'Incremented by every change' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  {
    title: 'Contract',
    examples: [
      {
        name: 'orders',
        columns: [
          { name: 'item', type: 'text', nullable: false },
          { name: 'total', type: 'number', indexed: true },
          { name: 'paid', type: 'boolean', default: false },
        ],
        droppedColumns: [],
        access: { read: 'own', create: true, update: 'own', delete: 'none' },
        version: 1,
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

export const ContractCreate = t.Object(
  {
    name: Name('Contract name'),
    columns: t.Array(ContractColumn, { minItems: 1, maxItems: MAX_COLUMNS }),
    access: t.Optional(t.Partial(ContractAccess, { title: 'ContractAccessPatch' })),
  },
  {
    title: 'ContractCreate',
    examples: [
      {
        name: 'orders',
        columns: [
          { name: 'item', type: 'text', nullable: false },
          { name: 'total', type: 'number', indexed: true },
          { name: 'paid', type: 'boolean', default: false },
        ],
        access: { read: 'own', create: true, update: 'own', delete: 'none' },
      },
    ],
  },
)

export const ContractPatch = t.Object(
  {
    addColumns: t.Optional(t.Array(ContractColumn, { maxItems: MAX_COLUMNS })),
    dropColumns: t.Optional(t.Array(t.String({ maxLength: 63 }), { maxItems: MAX_COLUMNS })),
    confirm: t.Optional(t.Boolean({ description: 'Also remove the values of dropped columns (this and earlier drops) from every row' })),
    access: t.Optional(t.Partial(ContractAccess, { title: 'ContractAccessPatch' })),
  },
  { title: 'ContractPatch', examples: [{ addColumns: [{ name: 'due', type: 'timestamp' }], access: { delete: 'own' } }], minProperties: 1 },
)

const ROW_EXAMPLE = {
  item: 'Tea',
  total: 4.5,
  paid: true,
  due: null,
  id: '1a0f9e8d-7c6b-4a59-8483-72615f4e3d2c',
  customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
}

export const ContractRow = t.Object(
  { id: t.String(), customerId: t.Union([t.String(), t.Null()]), createdAt: Timestamp, updatedAt: Timestamp },
  {
    title: 'ContractRow',
    additionalProperties: true,
    examples: [ROW_EXAMPLE],
    description: "The row's values under their column names, beside its system fields",
  },
)
export const ContractRowList = t.Object(
  { rows: t.Array(ContractRow), total: t.Optional(Int()), page: t.Optional(Int()), pageSize: t.Optional(Int()) },
  { title: 'ContractRowList', examples: [{ rows: [ROW_EXAMPLE], total: 1, page: 1, pageSize: 20 }] },
)
export const ContractValues = t.Record(t.String(), t.Unknown(), {
  title: 'ContractValues',
  examples: [{ item: 'Tea', total: 4.5, paid: true }],
  description: 'Values by column name',
})
