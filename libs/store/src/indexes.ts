/** MongoDB's wildcard index key: `<path>.$**` indexes every field below `<path>`. */
const WILDCARD_SUFFIX = '.$**';

export function isWildcardKey(field: string): boolean {
  return field.endsWith(WILDCARD_SUFFIX);
}

/** The path a wildcard key covers (`searchForm` for `searchForm.$**`). */
export function wildcardPath(field: string): string {
  return field.slice(0, -WILDCARD_SUFFIX.length);
}

/** The wildcard index key over every field below `path`. */
export function wildcardKey(path: string): string {
  return path + WILDCARD_SUFFIX;
}
