import { normalizePath } from './path';

describe('normalizePath', () => {
  it('drops every trailing slash of a path longer than /', () => {
    expect(normalizePath('/nft/assets/')).toBe('/nft/assets');
    expect(normalizePath('/nft/assets///')).toBe('/nft/assets');
  });

  it('leaves the root and paths without a trailing slash as they are', () => {
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('/nft/assets')).toBe('/nft/assets');
    expect(normalizePath('')).toBe('');
  });

  it('turns a path of slashes alone into the root', () => {
    expect(normalizePath('//')).toBe('/');
  });
});
