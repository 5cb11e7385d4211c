import {
  registerDecorator,
  type ValidationArguments,
  type ValidationOptions,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';

const MEDIA_TYPES = ['image', 'audio', 'video', 'pdf'];

/** The first problem of a user message's content (a string, or an array of content parts). */
export function contentProblem(content: unknown): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return 'must be a string or an array of content parts';
  if (content.length === 0) return 'must not be an empty array';
  for (const [index, part] of content.entries()) {
    const at = `[${index}]`;
    if (typeof part !== 'object' || part === null || Array.isArray(part)) {
      return `${at} must be an object with a type`;
    }
    const { type, text, url, data, mimeType } = part as Record<string, unknown>;
    if (type === 'text') {
      if (typeof text !== 'string') return `${at}.text must be a string`;
      continue;
    }
    if (typeof type !== 'string' || !MEDIA_TYPES.includes(type)) {
      return `${at}.type must be one of: text, ${MEDIA_TYPES.join(', ')}`;
    }
    if (url === undefined && data === undefined) return `${at} needs a url or data`;
    if (url !== undefined && typeof url !== 'string') return `${at}.url must be a string`;
    if (data !== undefined && typeof data !== 'string') return `${at}.data must be a string`;
    if (mimeType !== undefined && typeof mimeType !== 'string') {
      return `${at}.mimeType must be a string`;
    }
  }
  return undefined;
}

@ValidatorConstraint({ name: 'isChatContent' })
class IsChatContentConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return contentProblem(value) === undefined;
  }

  defaultMessage(args: ValidationArguments): string {
    const problem = contentProblem(args.value) ?? 'is invalid';
    // `content[1].text must be a string`, or `content must be a string or …`
    return problem.startsWith('[') ? `${args.property}${problem}` : `${args.property} ${problem}`;
  }
}

/** A user message's content: a string, or text/image/audio/video/pdf parts. */
export function IsChatContent(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: IsChatContentConstraint,
    });
}
