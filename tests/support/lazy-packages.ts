/** SDKs a start does not load: each is loaded where it is first used (bench/README.md, P7). */
export const LOADED_AT_FIRST_USE = [
  'openai',
  '@opentelemetry/sdk-trace',
  '@opentelemetry/exporter-trace-otlp-http',
  '@aws-sdk/client-s3',
  'stripe',
  'nodemailer',
  'twilio',
  '@simplewebauthn/server',
  'qrcode',
]
