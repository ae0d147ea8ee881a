import { buildPublicOpenApiDocument, type PublicDocument } from './gateway-document';
import { guardianArea } from '@ledger-api/guardian';
import { buildOpenApiDocument } from '@ledger-api/http';
import { nftBaseArea } from '@ledger-api/nft-base';
import { nftExchangeArea } from '@ledger-api/nft-exchange';
import { EmbeddedStore } from '@ledger-api/store';

type AreaDocumentSource = typeof guardianArea;

// The order of the areas is the order of the document's paths and tags.
const AREA_DOCUMENT_SOURCES: AreaDocumentSource[] = [guardianArea, nftBaseArea, nftExchangeArea];

function areaDocument(area: AreaDocumentSource) {
  // Routes only keep their dependencies for later requests: building them reads nothing,
  // so an empty store does.
  const routes = area.routes({
    store: new EmbeddedStore(),
    networkVersion: 0,
    package: { name: area.packageName, currentVersion: area.version, latestVersion: area.version },
  });
  return buildOpenApiDocument(area.info, routes, { liveEvents: { basePath: area.basePath, tag: area.eventsTag } });
}

/** The public document as the code describes it now. */
export function generatePublicDocument(): PublicDocument {
  return buildPublicOpenApiDocument(AREA_DOCUMENT_SOURCES.map(areaDocument));
}

/** The text of the document file: two-space JSON, as diffs read it best. */
export const documentText = (document: PublicDocument) => `${JSON.stringify(document, null, 2)}\n`;
