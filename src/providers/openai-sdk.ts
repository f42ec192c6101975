import type OpenAI from 'openai'
import type { ClientOptions } from 'openai'

export type OpenAiSdk = typeof OpenAI

let loading: Promise<OpenAiSdk> | undefined
let loaded: OpenAiSdk | undefined

/**
 * The `openai` SDK, loaded at the first call of a service that uses it rather than when the server
 * starts: it is about 150 modules, which an instance on the dev model or the local embedder never
 * needs (bench/README.md, P7).
 */
export function openAiSdk(): Promise<OpenAiSdk> {
  loading ??= import('openai').then((module) => {
    loaded = module.default
    return loaded
  })
  return loading
}

/** The SDK once loaded, for its error classes; a failure before it loaded did not come from it. */
export function loadedOpenAiSdk(): OpenAiSdk | undefined {
  return loaded
}

/** A client made at its first use (see openAiSdk). */
export function lazyOpenAiClient(options: ClientOptions): () => Promise<OpenAI> {
  let client: Promise<OpenAI> | undefined
  return () => {
    client ??= openAiSdk().then((Sdk) => new Sdk(options))
    return client
  }
}
