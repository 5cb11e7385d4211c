/**
 * A route or model name as an HTTP header value. Names may come from clients (`provider/model-id`
 * over the gateway) and may hold any character, but Node refuses a header outside latin-1 (and
 * garbles one outside ASCII), which would fail the response. Printable ASCII passes unchanged;
 * anything else is sent as UTF-8 percent-encoding (`%` itself included), as RFC 8187 does.
 */
export function toHeaderValue(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  let encoded = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    encoded +=
      byte >= 0x20 && byte <= 0x7e && byte !== 0x25
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}
