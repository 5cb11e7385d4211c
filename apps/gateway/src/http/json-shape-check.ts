import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';

/**
 * The body pipes' bounds (the library's `MAX_JSON_DEPTH` and `DEFAULT_MAX_VALUES`, which every
 * surface uses or tightens), here checked on the text before it is parsed.
 */
const MAX_DEPTH = 64;
const MAX_VALUES = 100_000;
/** The pipes' longest array (the library's `DEFAULT_MAX_ARRAY_LENGTH`). */
const MAX_ARRAY_LENGTH = 4096;
/**
 * Smaller bodies are parsed at once: at worst (16 KiB of `[`) that takes a few milliseconds,
 * less than the scan costs typical bodies in the gateway's CPU per request.
 */
const SCANNED_FROM_BYTES = 16 * 1024;

const STRUCTURE = /["[\]{},:]/g;

/** A refusal as the body pipes word it: the message, and the path of the value as `param`. */
export interface ShapeProblem {
  message: string;
  param: string;
}

/** An open array or object: where it sits in its parent, and how many commas it has seen. */
interface Frame {
  /** The key's text (quotes included) in an object, or the index in an array. */
  key: string | number;
  isArray: boolean;
  commas: number;
}

/**
 * Why a JSON text is refused before `JSON.parse` sees it, or undefined: nested deeper than the
 * body pipes accept, or holding more values than they accept, worded as the pipes word it, with
 * the path. The pipes count an object's keys and an array's items: a colon is a key, a comma in
 * an array one more item, so more of them than the bound are more values than it.
 * The pipes check the same bounds after parsing, but parsing is the cost: 8 MiB of `[` took V8
 * 3 s of the event loop, 700 000 keys 1.5 s, where 8 MiB of text parses in 15 ms. Strings are
 * skipped with `indexOf`; a malformed text is left to the parser, which says where.
 */
export function jsonShapeProblem(text: string): ShapeProblem | undefined {
  const structure = new RegExp(STRUCTURE);
  const frames: Frame[] = [];
  // where the last string started and ended: an object's key, when a value opens after it
  let lastString: [number, number] = [0, 0];
  let values = 0;
  for (let match = structure.exec(text); match !== null; match = structure.exec(text)) {
    const at = match.index;
    switch (text.charCodeAt(at)) {
      case 34: {
        const end = closingQuote(text, at);
        if (end === -1) return undefined;
        lastString = [at, end + 1];
        structure.lastIndex = end + 1;
        break;
      }
      case 91:
      case 123: {
        const parent = frames.at(-1);
        const key = parent?.isArray ? parent.commas : text.slice(...lastString);
        frames.push({ key, isArray: text.charCodeAt(at) === 91, commas: 0 });
        // the root is at depth 0 for the pipes, 1 here
        if (frames.length > MAX_DEPTH + 1) {
          const path = pathOf(frames);
          return {
            message: `Invalid request body: ${path} is nested more than ${MAX_DEPTH} levels deep; flatten the JSON (tool parameter schemas included)`,
            param: path,
          };
        }
        break;
      }
      case 93:
      case 125: {
        const frame = frames.pop();
        // an empty array has no comma and no item: it is never over the bound
        if (frame?.isArray === true && frame.commas + 1 > MAX_ARRAY_LENGTH) {
          return tooLong(frames, frame);
        }
        break;
      }
      default: {
        const frame = frames.at(-1);
        const isColon = text.charCodeAt(at) === 58;
        if (!isColon && frame) frame.commas++;
        // an array over its own bound is told as such, as the pipes tell it: it is counted
        // to its end (the values are no longer counted)
        if (values > MAX_VALUES) break;
        if ((isColon || frame?.isArray === true) && ++values > MAX_VALUES) {
          if (frame?.isArray === true && frame.commas >= MAX_ARRAY_LENGTH) break;
          return {
            message: `Invalid request body: more than ${MAX_VALUES} JSON values; send a smaller body (fewer messages, parts or tools).`,
            param: pathOf(frames) || '(body)',
          };
        }
      }
    }
  }
  return undefined;
}

function tooLong(parents: readonly Frame[], array: Frame): ShapeProblem {
  const path = pathOf([...parents, array]) || '(body)';
  return {
    message:
      `Invalid request body: ${path} has ${array.commas + 1} elements; at most ` +
      `${MAX_ARRAY_LENGTH} are accepted. Send fewer (split the conversation or the list).`,
    param: path,
  };
}

/** `tools.0.function.parameters`, as the pipes write a path (cut at 200 characters). */
function pathOf(frames: readonly Frame[]): string {
  const keys = frames.slice(1).map(({ key }) => (typeof key === 'number' ? key : keyText(key)));
  const path = keys.join('.');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

function keyText(quoted: string): string {
  try {
    return String(JSON.parse(quoted));
  } catch {
    return quoted.slice(1, -1);
  }
}

/** The index of the quote that closes the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let end = open;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end === -1) return -1;
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return end;
  }
}

/**
 * Fastify's own JSON parser (prototype poisoning refused, its errors and codes), behind the
 * shape check for bodies over 16 KiB: a 400 that costs a scan, not seconds of parsing. Its
 * "Body is not valid JSON" also says where, or that the JSON was valid but held a prototype key.
 */
export function registerJsonShapeCheck(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const problem = text.length > SCANNED_FROM_BYTES ? jsonShapeProblem(text) : undefined;
    if (problem !== undefined) return done(new BadRequestException(problem));
    parse(request, text, (error, value) => {
      const code = (error as (Error & { code?: unknown }) | null)?.code;
      done(code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? invalidJson(text) : error, value);
    });
  });
}

/** Fastify's refusal of a body, saying why: V8's syntax error, or the prototype key. */
function invalidJson(text: string): Error {
  let message =
    'Body is valid JSON but holds a __proto__ key, or a constructor key with a prototype, ' +
    'which is refused; remove it';
  try {
    JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    message = `Body is not valid JSON: ${reason.slice(0, 200)}`;
  }
  return Object.assign(new Error(message), {
    statusCode: 400,
    code: 'FST_ERR_CTP_INVALID_JSON_BODY',
  });
}
