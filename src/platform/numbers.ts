import { type IntegerOptions, Type } from '@sinclair/typebox'

/**
 * An integer in a JSON body: a JSON number, never a string. Elysia's `t.Integer` also takes a
 * string and converts it with `+value` (`"1e3"` is 1000, `"0x10"` is 16), which suits a query
 * string or a path, where everything is text, and not JSON, where the client chose the type: a
 * string there is 400 `validation_failed`. Query and path parameters keep `t.Integer`.
 */
export const Int = (options?: IntegerOptions) => Type.Integer(options)
