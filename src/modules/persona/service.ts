import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import type { EventBus } from '../../platform/events'
import type { ChatModel } from '../../providers/llm'
import { ModelServices } from './model-services'
import { type ChatPersona, Personas } from './personas'
import { PublicPersonas, type PublicSources } from './public'

/** The persona area: persona services (LLM providers), personas, and their public pages. */
export class PersonaService {
  readonly services: ModelServices
  readonly personas: Personas
  readonly public: PublicPersonas

  constructor(deps: Pick<Deps, 'config' | 'db' | 'llm' | 'now' | 'secret'>, sources: PublicSources, events: Pick<EventBus, 'emit'>) {
    this.services = new ModelServices(deps)
    this.personas = new Personas(deps, this.services, events)
    this.public = new PublicPersonas(deps, sources)
  }

  /**
   * For chat: the persona named `slug` in the ecosystem, with a client for its service (null: the
   * default service). `db` lets a caller read inside its own transaction.
   */
  async forChat(ecosystemId: string, slug: string, db?: Db): Promise<(ChatPersona & { client: ChatModel | null }) | null> {
    const persona = await this.personas.forChat(ecosystemId, slug, db)
    if (!persona) return null
    return { ...persona, client: persona.serviceId ? await this.services.client(ecosystemId, persona.serviceId, db) : null }
  }
}
