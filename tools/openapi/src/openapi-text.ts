/** The prose of the public OpenAPI document: what the API reference page shows above and between the operations. */

export const API_DESCRIPTION = `Read-only queries over the records of one ledger, in three areas: Guardian permission groups and users
(\`/api/guardian\`), NFT collections, assets, transfers and burns (\`/api/nft\`), and the auctions, bids and trades of the NFT
exchange (\`/api/nft/exchange\`). No operation changes a record.

## Lists and paging

A list or a search answers \`{"meta": {...}, "data": [...]}\`. \`page\` (from 1) and \`limit\` (1 to 100, default 100) choose
the page; a non-zero \`offset\` replaces \`(page - 1) * limit\`. \`meta.next\`, \`previous\`, \`self\`, \`first\` and \`last\` link to
pages of the same list: paths without \`/api\`, with the effective query. \`orderBy=<field>:<asc|desc>\` sorts by one of the
fields the list names; ties, and lists without \`orderBy\`, follow ledger order.

Every list and search also pages by cursor: send an empty \`cursor=\` for the first page and follow \`meta.next\`,
\`previous\` and \`last\`, whose links then carry an opaque \`cursor=<token>\` instead of \`page\`; \`page\` and \`offset\` are
not allowed beside it. A cursor holds the sort values of the record its page starts beside, not an offset, so a deep page
costs what the first does and a walk keeps its order while new blocks arrive. A malformed cursor, or one taken from another
list or order, is 422.

## Resources or transactions

NFT and exchange operations answer resource shapes; with \`transform=false\` they answer the ledger transactions the records
were read from instead.

## Errors

Every error answer is \`{"statusCode": <int>, "error": "<reason phrase>", "message": "<text>"}\`. Invalid input, an unknown
query parameter included, is 422 with a message naming the first problem: path, then query, then body.

## Caching and compression

Answers carry \`X-Request-Id\` (the one the request sent, else a new one), and answers of operations \`X-Block-Height\` and
\`X-Block-Id\`: the height and id of the ledger block the answer was read at (the last one applied, or the \`height\` asked for).
Answers asked by \`height\` and \`blockId\` at a block too deep to be reverted are \`immutable\`. GET answers carry an \`ETag\`: sent back in \`If-None-Match\`, it gets \`304 Not Modified\` while
the answer is unchanged. Answers over 1 KB are compressed (\`br\`, else \`gzip\`) when \`Accept-Encoding\` allows.

## Reads at a past height

Every operation that reads records takes \`height=N\`: the answer as the area stood right after block N of the chain it
follows now, with the counts, order and links the head answered then; \`blockId\` beside it asks that block N be that block.
\`minHeight=N\` answers at the newest height once block N is applied, waiting up to 2 s. Point reads reach 10,000 blocks
back, lists and searches 360. A height not reached yet, or another block at it, is 409 (with \`head\` or \`blockId\`); one
below the window 410 (with \`earliestHeight\`). A cursor walk stays at the height of its first page; once that block is
reverted, or falls out of the window, the walk gets 409 or 410 with \`first\`, the link to start again from.

## Live streams

\`GET /api/guardian/events\`, \`/api/nft/events\` and \`/api/nft/exchange/events\` stream, as Server-Sent Events, each block
the area commits: \`block.applied\` and \`block.reverted\`, after a first \`position\`. Reconnecting with the last event's id in
\`Last-Event-ID\` resumes the stream with none lost or repeated. Streams are never cached or compressed; comment lines keep
an idle one open.

## Rate limits and availability

Each client address may send a limited number of requests per minute; the \`RateLimit\`, \`RateLimit-Policy\` and
\`X-RateLimit-*\` headers say how many are left. Over the limit the answer is 429 with \`Retry-After\`. A service that is
down or still replaying the ledger after a start answers 503 with \`Retry-After\`; one that sends no valid answer, 502.`;

/** Every tag of the operations, described; generating the document fails on a tag missing here. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  'Guardian groups': 'Permission groups: the transaction types their members may send (allow) and may not (deny). A group is named by its name.',
  'Guardian users': 'Users, by public key, with the groups they belong to and the permissions those give them.',
  'Guardian configuration': 'The guardian service version and the limits of the Guardian transaction types.',
  'NFT collections':
    'NFT collections: the JSON schema of their assets, their maximum supply, the assets in them and the wallet that registered them.',
  'NFT assets': 'NFT assets: created in a collection, owned by a wallet, moved by transfers and exchange trades. Burned assets stay listed.',
  'NFT transfers': 'The transfers of NFT assets from their owner to a recipient, each as its transaction names them.',
  'NFT burns': 'The burns of NFT assets.',
  'NFT configuration': 'The NFT base service version and the limits of the NFT transaction types.',
  'Exchange auctions': 'Auctions of NFTs and their cancellations. An auction is active until it is canceled or a trade accepts one of its bids.',
  'Exchange bids': 'Bids on auctions and their cancellations.',
  'Exchange trades': 'Completed trades: a seller accepting a bid on their auction.',
  'Exchange configuration': 'The NFT exchange service version and the limits of the exchange transaction types.',
  'Guardian live events': 'The blocks the Guardian area commits, as they are committed: a live stream of Server-Sent Events.',
  'NFT live events': 'The blocks the NFT area commits, as they are committed: a live stream of Server-Sent Events.',
  'Exchange live events': 'The blocks the NFT exchange area commits, as they are committed: a live stream of Server-Sent Events.',
};
