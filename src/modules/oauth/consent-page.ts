import { escapeHtml } from '../../platform/html'

/** The minimal built-in sign-in + consent page and the error page of the authorization step. */

export interface ConsentPage {
  nonce: string
  clientName: string
  scopes: { name: string; description: string }[]
  /** The checked authorization request, posted as is to POST /api/oauth/authorize on approval. */
  request: Record<string, string>
  denyUrl: string
}

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
form,section{display:grid;gap:.6rem}input,button{font:inherit;padding:.5rem}ul{padding-left:1.2rem}
.row{display:flex;gap:.6rem}.row button{flex:1}#error{color:#b00020;min-height:1.2em}[hidden]{display:none}`

/** Security headers for both pages: no framing (clickjacking), no caching, no referrer. */
export function pageHeaders(nonce?: string): Record<string, string> {
  const script = nonce ? `script-src 'nonce-${nonce}'; ` : ''
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': `default-src 'none'; ${script}style-src 'nonce-${nonce ?? 'none'}'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  }
}

export function consentPage(page: ConsentPage): string {
  const scopes = page.scopes.map((s) => `<li><b>${escapeHtml(s.name)}</b>: ${escapeHtml(s.description)}</li>`).join('')
  const config = { request: page.request, denyUrl: page.denyUrl, login: '../../auth/login', revoke: '../../auth/revoke', authorize: 'authorize' }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in with Ecobase</title><style nonce="${page.nonce}">${STYLE}</style></head>
<body>
<h1>Sign in with Ecobase</h1>
<p><b>${escapeHtml(page.clientName)}</b> wants to access your Ecobase account:</p>
<ul>${scopes}</ul>
<form id="signin">
  <input name="email" type="email" autocomplete="username" placeholder="E-mail" required>
  <input name="password" type="password" autocomplete="current-password" placeholder="Password" required>
  <button type="submit">Sign in</button>
</form>
<section id="consent" hidden>
  <p>Allow <b>${escapeHtml(page.clientName)}</b> this access?</p>
  <div class="row"><button id="deny" type="button">Deny</button><button id="approve" type="button">Allow</button></div>
</section>
<p id="error" role="alert"></p>
<script type="application/json" id="config">${scriptJson(config)}</script>
<script nonce="${page.nonce}">
const config = JSON.parse(document.getElementById('config').textContent)
const error = document.getElementById('error')
let session = null
async function post(url, body, token) {
  const headers = { 'content-type': 'application/json' }
  if (token) headers.authorization = 'Bearer ' + token
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' })
  const data = await res.json().catch(() => null)
  if (!res.ok) throw new Error((data && data.error && data.error.message) || 'Request failed (' + res.status + ')')
  return data
}
// The sign-in here only serves this approval: end that session before leaving.
async function leave(url) {
  if (session) await post(config.revoke, { refreshToken: session.refreshToken }).catch(() => {})
  location.assign(url)
}
document.getElementById('signin').addEventListener('submit', async (event) => {
  event.preventDefault()
  error.textContent = ''
  const form = new FormData(event.target)
  try {
    session = await post(config.login, { email: form.get('email'), password: form.get('password') })
    event.target.hidden = true
    document.getElementById('consent').hidden = false
  } catch (e) { error.textContent = e.message }
})
document.getElementById('approve').addEventListener('click', async () => {
  try { await leave((await post(config.authorize, config.request, session.token)).redirectTo) }
  catch (e) { error.textContent = e.message }
})
document.getElementById('deny').addEventListener('click', () => leave(config.denyUrl))
</script>
</body></html>`
}

export function errorPage(nonce: string, message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorization error</title><style nonce="${nonce}">${STYLE}</style></head>
<body><h1>This sign-in request cannot be completed</h1><p id="error">${escapeHtml(message)}</p>
<p>Return to the application you came from and try again; if it keeps happening, tell its developers.</p></body></html>`
}
