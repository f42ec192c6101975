import { type IntegerOptions, Type } from '@sinclair/typebox'

/**
 * An integer in JSON, a body's or an answer's: a JSON number, never a string. Elysia's `t.Integer`
 * also takes a string and converts it with `+value` (`"1e3"` is 1000, `"0x10"` is 16), which suits
 * a query string or a path, where everything is text, and not JSON, where the client chose the
 * type: a string there is 400 `validation_failed`. Query and path parameters keep `t.Integer`.
 * It also compiles a validator at every call, about 1 ms while a start's code is cold: with the
 * answers' models on `t.Integer`, that was a sixth of an embedded restart (bench/README P7).
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options)
