/** `%`, `_` and `\` taken literally in a LIKE pattern (PostgreSQL's default escape is `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`)

/** A LIKE pattern for values containing `text` (as written, any wildcard in it literal). */
export const containing = (text: string) => `%${escapeLike(text)}%`
