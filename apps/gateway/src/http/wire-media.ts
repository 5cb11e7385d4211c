import { nonEmpty } from './wire-schema.js';

/**
 * Media a client may send, checked before any model is called: a provider refuses a `file://`
 * or `gs://` URL, a data URL of HTML or base64 that is not, and that refusal came back as the
 * model's error after the call was routed and counted. Here it is a 400 naming the field, on
 * every surface. The check of base64 is one scan of the text (13 ms for 8 MiB, less than its
 * JSON parse), paid only by bodies that carry media.
 */

/** The image types OpenAI and Anthropic take (Anthropic's `media_type` is one of these). */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** Standard base64 (the alphabet, then at most two `=`), as both APIs take it. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WEB_URL = /^https?:\/\/[^\s]+$/i;
const DATA_URL = /^data:([^;,]*)(;[^,]*)?,/i;

/** Whether `text` is standard base64. */
export function isBase64(text: string): boolean {
  return BASE64.test(text);
}

/** Base64 data (Anthropic's `source.data`): not empty, only the base64 alphabet. */
export const base64Data = nonEmpty.refine(
  isBase64,
  'must be base64 (A-Z, a-z, 0-9, + and /, padded with =), without a data: prefix',
);

/** An http(s) URL (Anthropic's `source.url`), which the provider fetches. */
export const webUrl = nonEmpty.refine(
  (url) => WEB_URL.test(url),
  'must be an http:// or https:// URL',
);

/**
 * What is wrong with an image URL as OpenAI takes one (an http(s) URL, or a data URL of a base64
 * image of `IMAGE_MEDIA_TYPES`), or undefined.
 */
export function imageUrlProblem(url: string): string | undefined {
  if (WEB_URL.test(url)) return undefined;
  const data = DATA_URL.exec(url);
  if (!data) return 'must be an http(s) URL or a data:image/...;base64, URL';
  const mediaType = data[1]!.toLowerCase();
  if (!isImageMediaType(mediaType)) {
    return `must be a data URL of an image (${IMAGE_MEDIA_TYPES.join(', ')})`;
  }
  if (data[2]?.toLowerCase() !== ';base64' || !isBase64(url.slice(data[0].length))) {
    return 'must be a data URL with base64 data (data:image/png;base64,...)';
  }
  return undefined;
}

/** An image URL as OpenAI's surfaces take it (see imageUrlProblem). */
export const imageUrl = nonEmpty.check((context) => {
  const problem = imageUrlProblem(context.value);
  if (problem) context.issues.push({ code: 'custom', input: context.value, message: problem });
});

/** Whether `mediaType` is one of IMAGE_MEDIA_TYPES (Anthropic's image `media_type`). */
export function isImageMediaType(mediaType: string): boolean {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType);
}
