import { joinPath } from './invalid-model-router-config.exception.js';

/** `${NAME}` or `${NAME:-default}`; `$${` is a literal `${`. */
const PLACEHOLDER = /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces environment references in every string of a parsed configuration. A variable that is
 * not set (and has no default) is a problem reported with the path where it is used, never with
 * a value. `${NAME:-}` is an explicit empty default.
 */
export function interpolateEnv(
  value: unknown,
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
  path = '',
): unknown {
  if (typeof value === 'string') return interpolateString(value, env, problems, path);
  if (Array.isArray(value)) {
    return value.map((item, index) => interpolateEnv(item, env, problems, joinPath(path, index)));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        interpolateEnv(item, env, problems, joinPath(path, key)),
      ]),
    );
  }
  return value;
}

function interpolateString(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
  path: string,
): string {
  return text.replace(
    PLACEHOLDER,
    (match, escaped: string | undefined, name: string, fallback: string | undefined) => {
      if (escaped) return match.slice(1);
      const value = env[name];
      if (value !== undefined && value !== '') return value;
      if (fallback !== undefined) return fallback;
      if (value === '') return '';
      problems.push(
        `${path || '(root)'}: environment variable ${name} is not set; set it or write \${${name}:-default}`,
      );
      return '';
    },
  );
}
