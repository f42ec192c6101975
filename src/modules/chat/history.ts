import { getTableColumns } from 'drizzle-orm'
import type { LlmMessage, LlmToolCall } from '../../providers/llm'
import { type conversations, messages } from './schema'

export type ConversationRow = typeof conversations.$inferSelect

/** A message as chat reads it: every column but the search index, which only search reads. */
const { searchVector, ...readColumns } = getTableColumns(messages)
export const messageColumns = readColumns
export type MessageRow = Omit<typeof messages.$inferSelect, 'searchVector'>

export const conversationView = (c: ConversationRow) => ({
  id: c.id,
  title: c.title,
  model: c.model,
  personaSlug: c.personaSlug,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
})

export const messageView = (m: MessageRow) => ({
  id: m.id,
  role: m.role,
  content: m.content,
  toolName: m.toolName,
  createdAt: m.createdAt.toISOString(),
  status: m.status,
})

const callOf = (row: MessageRow): LlmToolCall => ({ id: row.toolCallId ?? row.id, name: row.toolName ?? '', arguments: row.toolArguments ?? '{}' })

/**
 * The stored conversation as model input. Each run of tool messages becomes one assistant message
 * carrying those calls, followed by their results; replies that failed before any text are left out.
 */
export function toLlmMessages(rows: MessageRow[], systemPrompt: string | null): LlmMessage[] {
  const out: LlmMessage[] = systemPrompt ? [{ role: 'system', content: systemPrompt }] : []
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!
    if (row.role === 'user') out.push({ role: 'user', content: row.content })
    else if (row.role === 'assistant') {
      if (row.content) out.push({ role: 'assistant', content: row.content })
    } else {
      const run: MessageRow[] = []
      while (rows[i]?.role === 'tool') run.push(rows[i++]!)
      i--
      out.push({ role: 'assistant', content: '', toolCalls: run.map(callOf) })
      for (const tool of run) out.push({ role: 'tool', toolCallId: callOf(tool).id, content: tool.content })
    }
  }
  return out
}
