/** A trailing slash is ignored (docs/behaviour.md section 1): a path longer than `/` loses its trailing slashes. */
export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}
