/**
 * The shapes of a call through `client.api`, the way Eden treaty answers at run time; the route
 * tree itself (`Api` in schema/index.ts) is generated from the OpenAPI document.
 */

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 226

/** The second argument of a call (the first of a GET): query, extra headers, fetch options. */
export interface RequestOptions<Query = never> {
  query?: [Query] extends [never] ? undefined : Query
  /** Extra request headers. The ecosystem is not one of them: it is the client's `ecosystem` option (or `client.in(ecosystem)`). */
  headers?: Record<string, string | undefined>
  fetch?: Omit<RequestInit, 'headers' | 'method' | 'body'>
}

/**
 * What a call resolves to: `data` for a 2xx (typed by status), else `error` as `{ status, value }`
 * with the error body of that status. `status` is 0 when the request never reached the server
 * (then `error.value` is the thrown Error).
 */
export type Result<Res extends Record<number, unknown>> =
  | { data: Res[Extract<keyof Res, SuccessStatus>]; error: null; response: Response; status: number; headers: ResponseInit['headers'] }
  | {
      data: null
      error: Exclude<keyof Res, SuccessStatus> extends never
        ? { status: unknown; value: unknown }
        : { [Status in keyof Res]: { status: Status; value: Res[Status] } }[Exclude<keyof Res, SuccessStatus>]
      response: Response
      status: number
      headers: ResponseInit['headers']
    }
