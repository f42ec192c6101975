import { AppError } from '../errors'

/**
 * The lexical layer of the list grammar, PostgREST's: parenthesised lists split at top-level
 * commas (nested parentheses and double-quoted items kept whole), and quoted items with `\"` and
 * `\\` escapes. Splitting keeps each item's raw text, so a nested list is split again where it is read.
 */
export const invalid = (message: string) => new AppError(400, 'validation_failed', message)

/** The items of `(a,"b,c",d(e,f))` as written: `a`, `"b,c"`, `d(e,f)`; 400 unless the parentheses and quotes balance. */
export function splitList(text: string, where: string): string[] {
  if (!text.startsWith('(') || !text.endsWith(')')) throw invalid(`${where}: write a parenthesised list, (a,b,c)`)
  const items: string[] = []
  let depth = 0
  let quoted = false
  let start = 1
  for (let i = 1; i < text.length - 1; i++) {
    const c = text[i]
    if (quoted) {
      if (c === '\\') i++
      else if (c === '"') quoted = false
    } else if (c === '"') quoted = true
    else if (c === '(') depth++
    else if (c === ')') {
      if (--depth < 0) throw invalid(`${where}: unbalanced parentheses`)
    } else if (c === ',' && depth === 0) {
      items.push(text.slice(start, i))
      start = i + 1
    }
  }
  if (quoted) throw invalid(`${where}: unterminated quote`)
  if (depth !== 0) throw invalid(`${where}: unbalanced parentheses`)
  const last = text.slice(start, -1)
  if (items.length || last !== '') items.push(last)
  return items
}

/**
 * One list item as a value: `"…"` unquoted (`\x` stands for x), anything else as written; an
 * unquoted item may not hold `"`, `(` or `)` (quote it).
 */
export function unquote(item: string, where: string): string {
  if (!item.startsWith('"')) {
    if (/["()]/.test(item)) throw invalid(`${where}: quote a value holding " ( or ), e.g. "a(b)"`)
    return item
  }
  let out = ''
  for (let i = 1; i < item.length; i++) {
    const c = item[i]!
    if (c === '\\') {
      if (i + 1 >= item.length) break
      out += item[++i]
    } else if (c === '"') {
      if (i !== item.length - 1) throw invalid(`${where}: text after a closing quote`)
      return out
    } else out += c
  }
  throw invalid(`${where}: unterminated quote`)
}
