import { type EmbeddingProvider, normalize } from './types'

/** The name stored in `embeddingModel`; bump the version whenever the vectors it makes change. */
export const LOCAL_EMBEDDING_MODEL = 'local-ngram-v1'

// English function words carry no topic; they are left out unless a text has nothing else. So are
// "user" and "users": persona memories are about users, so the word is in most of them.
const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out ' +
    'over own same she should so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves ' +
    's t don doesn didn isn wasn aren weren won wouldn shouldn couldn ll re ve d m o y let lets also get got user users'
  ).split(' '),
)

/**
 * Weight of a word, and of its character trigrams together (spread over them, so long words do
 * not outweigh short ones): exact words and shared word forms count alike. Chosen on the labelled
 * set in tests/fixtures/memory-recall.json (word pairs only added hash collisions at 384 dimensions).
 */
const WORD = 1
const TRIGRAMS = 1

/**
 * A deterministic embedder that needs no service: hashed word and character-trigram features
 * (so "allergic" meets "allergy") with sublinear counts, folded into `dimensions`
 * signed buckets and scaled to unit length. It matches shared words and word forms, not
 * meanings: "car" does not find "vehicle". Use an embedding service for semantic recall.
 */
export class LocalEmbeddings implements EmbeddingProvider {
  readonly model = LOCAL_EMBEDDING_MODEL

  constructor(readonly dimensions: number) {}

  async embed(texts: string[]): Promise<number[][]> {
    return texts.map((text) => this.vector(text))
  }

  vector(text: string): number[] {
    const v = new Float64Array(this.dimensions)
    for (const [feature, weight] of features(text)) {
      const h = fnv1a(feature)
      v[h % this.dimensions] += Math.imul(h, 0x9e3779b1) < 0 ? -weight : weight
    }
    return normalize(v)
  }
}

function features(text: string): Map<string, number> {
  const words =
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  const content = words.filter((w) => !STOPWORDS.has(w))
  const kept = content.length > 0 ? content : words
  const seen = new Map<string, { weight: number; count: number }>()
  const add = (key: string, weight: number) => {
    const f = seen.get(key)
    if (f) {
      f.weight += weight
      f.count++
    } else seen.set(key, { weight, count: 1 })
  }
  for (const word of kept) {
    add(`w ${stemOf(word)}`, WORD)
    const padded = `<${word}>`
    const n = padded.length - 2
    for (let k = 0; k < n; k++) add(`c ${padded.slice(k, k + 3)}`, TRIGRAMS / Math.sqrt(n))
  }
  // Repeating a feature strengthens it less and less: mean weight × (1 + ln count).
  const out = new Map<string, number>()
  for (const [key, f] of seen) out.set(key, (f.weight / f.count) * (1 + Math.log(f.count)))
  return out
}

/** A light English suffix stripper: plurals and common verb endings. */
function stemOf(word: string): string {
  if (word.length <= 3) return word
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.endsWith(suffix) && !word.endsWith('ss') && word.length - suffix.length >= 3) return word.slice(0, -suffix.length)
  }
  return word
}

/** 32-bit FNV-1a over UTF-16 code units: stable across runtimes and versions, unlike Bun.hash. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
