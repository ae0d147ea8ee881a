import type { CollectionSpec, Sort } from '../types';
import type { PageRequest } from '../window';
import { indexCoverage, type Coverage, type CoverageOptions } from './index-coverage';
import { filterCombinations, pageRequests, type ParamSchema } from './query-matrix';
import { describeRead } from './query-shape';
import type { RecordedRead, RecordingStore } from './recording-store';

/** A list route as its query config declares it, and how its repository reads one query. */
export interface ListRoute {
  route: string;
  filters: Record<string, ParamSchema>;
  orderable: Record<string, string>;
  /** The list's default order: given, its reads are also issued as keyset reads. */
  defaultOrder?: Sort;
  /** Bodies of a search route, each issued with every filter combination and order. */
  bodies?: unknown[];
  read(query: PageRequest & Record<string, unknown>, body: unknown): Promise<unknown>;
}

export interface RouteReads {
  route: string;
  /** Whether the reads were issued with an explicit orderBy. */
  ordered: boolean;
  reads: RecordedRead[];
}

/** Issues every filter combination × every order and window (× every body) of each route, recording the reads of each. */
export async function issueListRoutes(store: RecordingStore, routes: ListRoute[]): Promise<RouteReads[]> {
  const issued: RouteReads[] = [];
  for (const { route, filters, orderable, defaultOrder, bodies = [undefined], read } of routes) {
    for (const filterValues of filterCombinations(filters)) {
      for (const request of pageRequests(orderable, defaultOrder)) {
        for (const body of bodies) {
          store.takeReads();
          await read({ ...request, ...filterValues }, body);
          issued.push({ route, ordered: request.orderBy !== undefined, reads: store.takeReads() });
        }
      }
    }
  }
  return issued;
}

/**
 * The reads no index serves well enough: an unindexed one anywhere, or a
 * read of a list in its default order that still sorts in memory.
 */
export function poorlyIndexed(issued: RouteReads[], specs: CollectionSpec[], options?: CoverageOptions): string[] {
  const acceptable = (coverage: Coverage, ordered: boolean) =>
    coverage === 'indexed' || coverage === 'wildcard' || (ordered && coverage === 'bounded-sort');
  const poor = new Set<string>();
  for (const { route, ordered, reads } of issued) {
    for (const read of reads) {
      const coverage = indexCoverage(read, specs, options);
      if (!acceptable(coverage, ordered)) poor.add(`${route}: ${describeRead(read)} (${coverage})`);
    }
  }
  return [...poor];
}

/** Per route, the distinct filters and the distinct sorts its reads carry, for a snapshot. */
export function routeQuerySummary(issued: RouteReads[]): Record<string, { filters: string[]; sorts: string[] }> {
  const summary: Record<string, { filters: Set<string>; sorts: Set<string> }> = {};
  for (const { route, reads } of issued) {
    summary[route] ??= { filters: new Set(), sorts: new Set() };
    for (const read of reads) {
      summary[route].filters.add(describeRead({ ...read, sort: undefined }));
      if (read.sort) summary[route].sorts.add(`${read.collection} ${JSON.stringify(read.sort)}`);
    }
  }
  return Object.fromEntries(Object.entries(summary).map(([route, { filters, sorts }]) => [route, { filters: [...filters], sorts: [...sorts] }]));
}
