import type { Column } from 'drizzle-orm'

/**
 * A row that a statement returned as JSON (`to_jsonb`, keyed by the columns' names in the
 * database), mapped to the table's fields as Drizzle maps a selected row. Every column must be
 * there: a function whose column list fell behind its table fails here, not as a field gone quiet.
 */
export function rowFromJson<T>(columns: Record<string, Column>, json: Record<string, unknown>): T {
  const row: Record<string, unknown> = {}
  for (const [field, column] of Object.entries(columns)) {
    if (!(column.name in json)) throw new Error(`The row has no column "${column.name}"`)
    const value = json[column.name]
    row[field] = value === null ? null : column.mapFromDriverValue(value)
  }
  return row as T
}
