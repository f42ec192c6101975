import type { Static, TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { Tenant } from '../../../platform/tenancy'
import type { LlmToolCall, LlmToolSpec } from '../../../providers/llm'

/** Who a tool runs for: the conversation's tenant and persona. */
export interface ToolContext {
  tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>
  conversationId: string
  personaId: string | null
  now: () => Date
  signal: AbortSignal
}

export interface ChatTool<S extends TSchema = TSchema> {
  name: string
  description: string
  parameters: S
  /** Whether the tool applies to this turn (e.g. memory needs a persona). */
  available?(context: ToolContext): boolean
  run(args: Static<S>, context: ToolContext): Promise<unknown>
}

export interface ToolOutcome {
  ok: boolean
  /** JSON text handed back to the model and stored as the tool message. */
  result: string
}

/** Declares a tool with its argument schema, so `run` gets typed, validated arguments. */
export function defineTool<S extends TSchema>(tool: ChatTool<S>): ChatTool {
  return tool as unknown as ChatTool
}

/**
 * The tools a model may call. Arguments are parsed and checked against the tool's TypeBox schema
 * before it runs; a bad call or a failing tool is reported to the model as `{ error }`, never
 * thrown, so the model can recover.
 */
export class ToolRegistry {
  private readonly tools = new Map<string, ChatTool>()

  register(...tools: ChatTool[]): this {
    for (const tool of tools) this.tools.set(tool.name, tool)
    return this
  }

  specs(context: ToolContext): LlmToolSpec[] {
    return [...this.tools.values()]
      .filter((tool) => tool.available?.(context) ?? true)
      .map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters as unknown as Record<string, unknown> }))
  }

  async call(call: LlmToolCall, context: ToolContext): Promise<ToolOutcome> {
    const tool = this.tools.get(call.name)
    if (!tool || !(tool.available?.(context) ?? true)) return failure(`Unknown tool "${call.name}"`)
    let args: unknown
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments)
    } catch {
      return failure('The arguments are not valid JSON')
    }
    const invalid = Value.Errors(tool.parameters, args).First()
    if (invalid) return failure(`Invalid arguments: ${invalid.path || '/'} ${invalid.message}`)
    try {
      return { ok: true, result: JSON.stringify((await tool.run(args, context)) ?? null) }
    } catch (err) {
      return failure(`The tool failed: ${(err as Error).message}`)
    }
  }
}

const failure = (error: string): ToolOutcome => ({ ok: false, result: JSON.stringify({ error }) })
