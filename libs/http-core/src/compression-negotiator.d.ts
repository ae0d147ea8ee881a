// The part of negotiator 1.x used by compression.ts; the package ships no type declarations.
declare module 'negotiator' {
  interface NegotiatorRequest {
    headers: Record<string, string | string[] | undefined>;
  }

  class Negotiator {
    constructor(request: NegotiatorRequest);
    /** The acceptable codings among `available`, best first; ties go to the order of `options.preferred`. */
    encodings(available: readonly string[], options?: { preferred?: readonly string[] }): string[];
  }

  export = Negotiator;
}
