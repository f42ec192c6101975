import { Type as T } from '@sinclair/typebox'
import type { Tenant } from '../../../platform/tenancy'
import { defineTool, type ChatTool } from './registry'

export type MemoryType = 'user' | 'feedback' | 'project' | 'reference'

export interface MemoryMatch {
  id: string
  slug: string
  memoryType: MemoryType
  description: string
  body: string
  similarity: number
}

/**
 * What chat needs from persona memory: recall and save for the conversation's customer and
 * persona. The persona memory area implements it; app.ts passes it to ChatService.
 */
export interface MemoryTools {
  recall(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, personaId: string, query: string, limit: number): Promise<MemoryMatch[]>
  save(
    tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>,
    personaId: string,
    memory: { slug?: string; description: string; body: string; memoryType: MemoryType },
  ): Promise<string>
}

const MemoryTypeSchema = T.Union([T.Literal('user'), T.Literal('feedback'), T.Literal('project'), T.Literal('reference')])

/** `memory_recall` and `memory_save`, offered only in conversations with a persona. */
export function memoryTools(memory: MemoryTools): ChatTool[] {
  const withPersona = (context: { personaId: string | null }) => context.personaId !== null
  return [
    defineTool({
      name: 'memory_recall',
      description: 'Recall what you remember about this user or topic. Returns the closest memories first.',
      parameters: T.Object({
        query: T.String({ minLength: 1, maxLength: 2000, description: 'What to look for' }),
        limit: T.Optional(T.Integer({ minimum: 1, maximum: 20, description: 'At most this many memories (default 5)' })),
      }),
      available: withPersona,
      async run(args, context) {
        const matches = await memory.recall(context.tenant, context.personaId!, args.query, args.limit ?? 5)
        return {
          memories: matches.map((m) => ({ slug: m.slug, memoryType: m.memoryType, description: m.description, body: m.body, similarity: m.similarity })),
        }
      },
    }),
    defineTool({
      name: 'memory_save',
      description: 'Remember something durable about this user (a preference, a fact, feedback) for later conversations.',
      parameters: T.Object({
        description: T.String({ minLength: 1, maxLength: 500, description: 'One line: what this memory is about' }),
        body: T.String({ minLength: 1, maxLength: 10000, description: 'The memory itself' }),
        memoryType: MemoryTypeSchema,
        slug: T.Optional(T.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,99}$', description: 'Optional short stable name for the memory' })),
      }),
      available: withPersona,
      async run(args, context) {
        return { id: await memory.save(context.tenant, context.personaId!, args) }
      },
    }),
  ]
}
