import type { WebAuthnCredentialResponse } from '../client/index'

/**
 * The browser's side of passkeys: the service's options (WebAuthn JSON) go to the authenticator,
 * its answer goes back as JSON. Browsers without the JSON helpers (before Chrome 129, Firefox 119,
 * Safari 18) are told so instead of failing halfway. The DOM's JSON types are the schema's
 * `WebAuthnCredentialResponse` without its open index signature, hence the casts.
 */
export const passkeysSupported = (): boolean =>
  typeof PublicKeyCredential !== 'undefined' && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function'

/** Creates a passkey on this device for the service's creation options; its registration response. */
export async function createPasskey(options: unknown): Promise<WebAuthnCredentialResponse> {
  const created = await navigator.credentials.create({
    publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options as PublicKeyCredentialCreationOptionsJSON),
  })
  if (!created) throw new Error('No passkey was created')
  return (created as PublicKeyCredential).toJSON() as unknown as WebAuthnCredentialResponse
}

/** Asks this device for a passkey matching the service's request options; its authentication response. */
export async function pickPasskey(options: unknown): Promise<WebAuthnCredentialResponse> {
  const asserted = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options as PublicKeyCredentialRequestOptionsJSON),
  })
  if (!asserted) throw new Error('No passkey was chosen')
  return (asserted as PublicKeyCredential).toJSON() as unknown as WebAuthnCredentialResponse
}
